/* The head of pjsip's iOS audio driver (coreaudio_dev.c), as it is written: TargetConditionals.h
 * decides Mac or iOS, AudioConverter.h is included for its resampler's types, AUDIO_UNIT_VERSION
 * selects the AudioComponent API, and the unit is found by a component description. Built in
 * Apple's form with -DTARGET_OS_IPHONE=1 it takes the iOS path (exit 0); without, the Mac path
 * this system does not claim to be (exit 3). */
#include <TargetConditionals.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioToolbox/AudioConverter.h>
#if TARGET_OS_IPHONE
#include <AudioToolbox/AudioServices.h>
#define COREAUDIO_MAC 0
#else
#define COREAUDIO_MAC 1
#endif
#include <stdio.h>

#include "check.h"

#if !defined(AUDIO_UNIT_VERSION) || AUDIO_UNIT_VERSION < 1060
#error "pjsip would fall back to the Component Manager of Mac OS X 10.5"
#endif

#if TARGET_OS_MAC || TARGET_OS_WIN32 || !TARGET_OS_LINUX || !TARGET_OS_UNIX
#error "TargetConditionals.h: not the values of this system"
#endif

struct coreaudio_stream {
    AudioComponent component;
    AudioUnit io_units[2];
    AudioStreamBasicDescription streamFormat;
    AudioConverterRef resample;
};

int main(void) {
#if COREAUDIO_MAC
    printf("pjsip_style: TARGET_OS_IPHONE is 0: the Mac path\n");
    return failures + 3;
#else
    struct coreaudio_stream strm = {0};
    AudioComponentDescription desc;
    desc.componentType = kAudioUnitType_Output;
    desc.componentSubType = kAudioUnitSubType_VoiceProcessingIO;
    desc.componentManufacturer = kAudioUnitManufacturer_Apple;
    desc.componentFlags = 0;
    desc.componentFlagsMask = 0;
    strm.component = AudioComponentFindNext(NULL, &desc);
    EXPECT(strm.component != NULL, "the voice-processing unit found");
    EXPECT(AudioComponentInstanceNew(strm.component, &strm.io_units[0]) == noErr, "an instance");
    UInt32 enable = 1;
    EXPECT(AudioUnitSetProperty(strm.io_units[0], kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &enable,
                                sizeof(enable)) == noErr,
           "input enabled");
    strm.streamFormat.mSampleRate = 16000;
    strm.streamFormat.mFormatID = kAudioFormatLinearPCM;
    strm.streamFormat.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    strm.streamFormat.mBitsPerChannel = 16;
    strm.streamFormat.mChannelsPerFrame = 1;
    strm.streamFormat.mBytesPerFrame = strm.streamFormat.mBytesPerPacket = 2;
    strm.streamFormat.mFramesPerPacket = 1;
    EXPECT(AudioUnitSetProperty(strm.io_units[0], kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                                &strm.streamFormat, sizeof(strm.streamFormat)) == noErr,
           "the capture format set");
    AudioStreamBasicDescription read;
    UInt32 size = sizeof(read);
    EXPECT(AudioUnitGetProperty(strm.io_units[0], kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &read,
                                &size) == noErr &&
               size == sizeof(read) && read.mSampleRate == 16000 && read.mBitsPerChannel == 16,
           "kAudioUnitProperty_StreamFormat read back");
    EXPECT(strm.resample == NULL && kAudioConverterQuality_Max == 0x7F, "AudioConverter's types and constants");
    EXPECT(AudioComponentInstanceDispose(strm.io_units[0]) == noErr, "disposed");
    printf("pjsip_style: the iOS path: the unit found and set up as pjsip does\n");
    return failures;
#endif
}
