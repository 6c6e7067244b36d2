/* pjsip's Core Audio driver's resampler (coreaudio_dev.c), built in Apple's form with only
 * -DTARGET_OS_IPHONE=1 (SPEC SO9): an Audio Converter from the device's 44.1 kHz to the call's
 * 16 kHz, 16-bit mono, filled with AudioConverterFillComplexBuffer from an input procedure that
 * hands over what it has and then says "no more" with an error of its own (as pjsip's does), reset
 * between calls and disposed — the 440 Hz tone at its frequency; bad input refused.
 * Exit status: failures. */
#include <TargetConditionals.h>
#include <AudioToolbox/AudioToolbox.h>
#include <AudioToolbox/AudioConverter.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tone.h"

#if !TARGET_OS_IPHONE
#error "built without -DTARGET_OS_IPHONE=1"
#endif

#define NO_MORE_DATA 0x6E6F6D72 /* pjsip's own "no more" status */

struct feed {
    short *samples;
    UInt32 frames;
    UInt32 given;
};

static OSStatus resample_proc(AudioConverterRef converter, UInt32 *packets, AudioBufferList *data,
                              AudioStreamPacketDescription **descriptions, void *user) {
    (void)converter; (void)descriptions;
    struct feed *feed = user;
    if (feed->given >= feed->frames) {
        *packets = 0;
        return NO_MORE_DATA;
    }
    UInt32 count = *packets < feed->frames - feed->given ? *packets : feed->frames - feed->given;
    data->mBuffers[0].mData = feed->samples + feed->given;
    data->mBuffers[0].mDataByteSize = count * 2;
    data->mBuffers[0].mNumberChannels = 1;
    feed->given += count;
    *packets = count;
    return noErr;
}

int main(void) {
    AudioStreamBasicDescription device = {44100, kAudioFormatLinearPCM,
                                          kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, 2, 1, 2, 1, 16, 0};
    AudioStreamBasicDescription call = device;
    call.mSampleRate = 16000;
    AudioConverterRef resample = NULL;
    EXPECT_STATUS(AudioConverterNew(&device, &call, &resample), noErr, "AudioConverterNew 44.1 kHz -> 16 kHz");
    UInt32 quality = kAudioConverterQuality_Max, size = sizeof(quality);
    EXPECT_STATUS(AudioConverterSetProperty(resample, kAudioConverterSampleRateConverterQuality, size, &quality), noErr,
                  "its quality set");
    AudioStreamBasicDescription current;
    size = sizeof(current);
    EXPECT_STATUS(AudioConverterGetProperty(resample, kAudioConverterCurrentOutputStreamDescription, &size, &current), noErr,
                  "its output format read");
    EXPECT(current.mSampleRate == 16000 && current.mBitsPerChannel == 16, "as made");

    static short input[44100];
    for (int i = 0; i < 44100; i++) input[i] = (short)(16384 * sin(2 * M_PI * 440 * i / 44100.0));
    static short output[16000];
    for (int round = 0; round < 2; round++) {
        struct feed feed = {input, 44100, 0};
        UInt32 made = 0;
        while (made < 15000) {
            UInt32 packets = 320;
            AudioBufferList list;
            list.mNumberBuffers = 1;
            list.mBuffers[0].mNumberChannels = 1;
            list.mBuffers[0].mDataByteSize = packets * 2;
            list.mBuffers[0].mData = output + made;
            OSStatus status = AudioConverterFillComplexBuffer(resample, resample_proc, &feed, &packets, &list, NULL);
            made += packets;
            if (status == NO_MORE_DATA || packets == 0) break;
            if (status != noErr) {
                printf("   FillComplexBuffer returned %d\n", (int)status);
                break;
            }
        }
        printf("   round %d: %u frames made\n", round, (unsigned)made);
        EXPECT(made >= 15000, "a second of input made about a second at 16 kHz");
        double tone = tone_power16(output + 2000, 8000, 440, 16000);
        double beside = fmax(tone_power16(output + 2000, 8000, 330, 16000), tone_power16(output + 2000, 8000, 550, 16000));
        EXPECT(tone > 100 * beside, "the tone at 440 Hz");
        EXPECT_STATUS(AudioConverterReset(resample), noErr, "reset for the next call");
    }
    /* Bad input. */
    UInt32 packets = 320;
    AudioBufferList list;
    list.mNumberBuffers = 1;
    list.mBuffers[0].mNumberChannels = 1;
    list.mBuffers[0].mDataByteSize = 640;
    list.mBuffers[0].mData = output;
    EXPECT_STATUS(AudioConverterFillComplexBuffer(resample, NULL, NULL, &packets, &list, NULL), kAudio_ParamError,
                  "a NULL input procedure");
    struct feed empty = {input, 44100, 0};
    packets = 0;
    EXPECT_STATUS(AudioConverterFillComplexBuffer(resample, resample_proc, &empty, &packets, &list, NULL), noErr,
                  "0 packets asked: nothing to do");
    EXPECT(packets == 0 && empty.given == 0, "and nothing taken");
    UInt32 bytes = 640;
    EXPECT_STATUS(AudioConverterConvertBuffer(resample, 640, input, &bytes, output), kAudioConverterErr_OperationNotSupported,
                  "ConvertBuffer does not change the rate");
    EXPECT_STATUS(AudioConverterGetProperty(resample, kAudioConverterEncodeBitRate, &size, &quality),
                  kAudioConverterErr_PropertyNotSupported, "an encoder's property");
    EXPECT_STATUS(AudioConverterDispose(resample), noErr, "disposed");
    EXPECT_STATUS(AudioConverterDispose(resample), kAudio_ParamError, "disposed twice: refused");
    AudioStreamBasicDescription aac = {44100, kAudioFormatMPEG4AAC, 0, 0, 1024, 0, 1, 0, 0};
    AudioConverterRef none = NULL;
    EXPECT_STATUS(AudioConverterNew(&aac, &call, &none), kAudioConverterErr_FormatNotSupported, "AAC: 'fmt?'");
    EXPECT(none == NULL, "and no converter");
    /* Same rate, stereo float to mono 16-bit: ConvertBuffer. */
    AudioStreamBasicDescription stereo = {16000, kAudioFormatLinearPCM, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                          8, 1, 8, 2, 32, 0};
    AudioConverterRef mix = NULL;
    EXPECT_STATUS(AudioConverterNew(&stereo, &call, &mix), noErr, "stereo float -> mono 16-bit");
    float pair[4] = {0.5f, 0.5f, -0.25f, -0.75f};
    short mono[2] = {0, 0};
    bytes = sizeof(mono);
    EXPECT_STATUS(AudioConverterConvertBuffer(mix, sizeof(pair), pair, &bytes, mono), noErr, "ConvertBuffer");
    EXPECT(bytes == 4 && abs(mono[0] - 16384) < 2 && abs(mono[1] + 16384) < 2, "mixed down by the mean");
    AudioConverterDispose(mix);
    return failures;
}
