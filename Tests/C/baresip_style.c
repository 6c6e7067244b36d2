/* baresip's iOS audio module (modules/audiounit) as it is written, built in Apple's form with
 * only -DTARGET_OS_IPHONE=1 (SPEC SO9): the VoiceProcessingIO unit found and named
 * (AudioComponentCopyName), its sample rate read back (kAudioUnitProperty_SampleRate, which it
 * reads on both scopes), and an AUConverter between the hardware's 48 kHz stereo float and the
 * call's 16 kHz mono 16-bit, pulled with AudioUnitRender from its input render callback — the
 * 440 Hz tone that goes in comes out at its frequency and level. Exit status: failures. */
#include <TargetConditionals.h>
#include <AudioToolbox/AudioToolbox.h>
#include <AudioUnit/AudioUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tone.h"

#if !TARGET_OS_IPHONE
#error "built without -DTARGET_OS_IPHONE=1"
#endif

static double phase;

/* The input render callback: 48 kHz stereo float, a 440 Hz sine at 0.5 on both channels. */
static OSStatus input_handler(void *ref, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *ts, UInt32 bus,
                              UInt32 frames, AudioBufferList *data) {
    (void)ref; (void)flags; (void)ts; (void)bus;
    float *samples = data->mBuffers[0].mData;
    for (UInt32 i = 0; i < frames; i++) {
        float value = (float)(0.5 * sin(phase));
        samples[2 * i] = samples[2 * i + 1] = value;
        phase += 2 * M_PI * 440 / 48000;
    }
    data->mBuffers[0].mDataByteSize = frames * 8;
    return noErr;
}

/* Apple's name of a component, as a C string (its CFString released). */
static void component_name(AudioComponent component, char *text, CFIndex size) {
    CFStringRef name = NULL;
    text[0] = 0;
    if (AudioComponentCopyName(component, &name) == noErr && name) {
        CFStringGetCString(name, text, size, kCFStringEncodingUTF8);
        CFRelease(name);
    }
}

int main(void) {
    AudioComponentDescription desc = {kAudioUnitType_Output, kAudioUnitSubType_VoiceProcessingIO,
                                      kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponent io = AudioComponentFindNext(NULL, &desc);
    EXPECT(io != NULL, "VoiceProcessingIO found");
    char text[64];
    component_name(io, text, sizeof(text));
    EXPECT(strcmp(text, "Apple: AUVoiceProcessingIO") == 0, "AudioComponentCopyName: its name is Apple's");
    AudioUnit unit = NULL;
    EXPECT_STATUS(AudioComponentInstanceNew(io, &unit), noErr, "the I/O unit made");
    Float64 hw_rate = 0;
    UInt32 size = sizeof(hw_rate);
    EXPECT_STATUS(AudioUnitGetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, 0, &hw_rate, &size),
                  noErr, "the sample rate read (input scope, bus 0)");
    EXPECT(hw_rate >= 8000 && size == sizeof(Float64), "a rate");
    Float64 rate = 16000;
    EXPECT_STATUS(AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 1, &rate, sizeof(rate)),
                  noErr, "the sample rate written (output scope, bus 1)");
    AudioStreamBasicDescription fmt;
    size = sizeof(fmt);
    AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &fmt, &size);
    EXPECT(fmt.mSampleRate == 16000, "the stream format follows it");
    EXPECT_STATUS(AudioComponentInstanceDispose(unit), noErr, "the I/O unit disposed");

    /* The converter, as baresip makes it. */
    AudioComponentDescription conv_desc = {kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter,
                                           kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponent conv = AudioComponentFindNext(NULL, &conv_desc);
    EXPECT(conv != NULL, "AU Converter found");
    component_name(conv, text, sizeof(text));
    EXPECT(strcmp(text, "Apple: AUConverter") == 0, "named Apple: AUConverter");
    AudioUnit converter = NULL;
    EXPECT_STATUS(AudioComponentInstanceNew(conv, &converter), noErr, "the converter made");
    AudioStreamBasicDescription in = {48000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                      8, 1, 8, 2, 32, 0};
    AudioStreamBasicDescription out = {16000, kAudioFormatLinearPCM,
                                       kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 2, 1, 2, 1, 16, 0};
    EXPECT_STATUS(AudioUnitSetProperty(converter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &in, sizeof(in)),
                  noErr, "its input format");
    EXPECT_STATUS(AudioUnitSetProperty(converter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &out, sizeof(out)),
                  noErr, "its output format");
    AURenderCallbackStruct cb = {input_handler, NULL};
    EXPECT_STATUS(AudioUnitSetProperty(converter, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb, sizeof(cb)),
                  noErr, "its input render callback");
    AudioStreamBasicDescription aac = {44100, kAudioFormatMPEG4AAC, 0, 0, 1024, 0, 2, 0, 0};
    EXPECT_STATUS(AudioUnitSetProperty(converter, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &aac, sizeof(aac)),
                  kAudioUnitErr_FormatNotSupported, "a compressed format refused");
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp ts;
    memset(&ts, 0, sizeof(ts));
    static short pcm[16000];
    AudioBufferList list;
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 1;
    list.mBuffers[0].mDataByteSize = 320 * 2;
    list.mBuffers[0].mData = pcm;
    EXPECT_STATUS(AudioUnitRender(converter, &flags, &ts, 0, 320, &list), kAudioUnitErr_Uninitialized,
                  "AudioUnitRender before AudioUnitInitialize");
    EXPECT_STATUS(AudioUnitInitialize(converter), noErr, "initialized");
    int ok = 1;
    for (int slice = 0; slice < 50; slice++) { /* 50 × 20 ms */
        list.mBuffers[0].mData = pcm + slice * 320;
        list.mBuffers[0].mDataByteSize = 320 * 2;
        ok = ok && AudioUnitRender(converter, &flags, &ts, 0, 320, &list) == noErr && list.mBuffers[0].mDataByteSize == 640;
    }
    EXPECT(ok, "50 slices of 320 frames rendered");
    double tone = tone_power16(pcm + 4000, 8000, 440, 16000);
    double beside = fmax(tone_power16(pcm + 4000, 8000, 330, 16000), tone_power16(pcm + 4000, 8000, 550, 16000));
    double sum = 0;
    for (int i = 4000; i < 12000; i++) sum += (pcm[i] / 32768.0) * (pcm[i] / 32768.0);
    double level = 10 * log10(sum / 8000);
    printf("   converted: 440 Hz %.0f beside %.3f, level %.2f dBFS\n", tone, beside, level);
    EXPECT(tone > 100 * beside, "the converted tone is 440 Hz");
    EXPECT(fabs(level - 20 * log10(0.5 / sqrt(2))) < 1, "at its level (a sine at 0.5: -9 dBFS)");
    EXPECT_STATUS(AudioUnitRender(converter, &flags, &ts, 1, 320, &list), kAudioUnitErr_InvalidElement, "bus 1: no such bus");
    EXPECT_STATUS(AudioUnitUninitialize(converter), noErr, "uninitialized");
    EXPECT_STATUS(AudioComponentInstanceDispose(converter), noErr, "disposed");
    EXPECT_STATUS(AudioComponentInstanceDispose(converter), kAudio_ParamError, "disposed twice: refused");
    return failures;
}
