/*
 * An app that plays and records through the I/O units (SPEC §19 SO5), found as pjsip's and
 * baresip's iOS drivers find them: a component description, then AudioComponentFindNext.
 *
 *   unit-app tone SECONDS   RemoteIO's render callback plays a 440 Hz tone at -6 dBFS (16-bit
 *                           stereo); after an interruption that ends with should-resume the app
 *                           starts the unit again; then (or at SIGUSR1) disposes of it and lives 2 s
 *                           more
 *   unit-app voice          VoiceProcessingIO records 1.5 s through its input callback
 *                           (AudioUnitRender into the unit's buffer) and prints its level and
 *                           440 Hz's share
 *   unit-app checks         discovery, formats read back, bad input, the render callback's size,
 *                           VoiceProcessingIO stopped by a call (run with AUDIOSESSION_RENDER_DIR:
 *                           the simulated device; or through a daemon)
 *
 * Every event is a line on stdout, for the tests to wait for.
 */
#include <AudioSessionServices.h>
#include <AudioUnitServices.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

enum { RATE = 48000 };

static AudioUnit unit;
static long phase;
static atomic_int lastFrames, lastRunning = -1;

static void say(const char *format, long a) {
    printf(format, a);
    printf("\n");
    fflush(stdout);
}

/* pjsip's way: describe the unit, find the component, make an instance. */
static AudioUnit newUnit(UInt32 subType) {
    AudioComponentDescription description = {0};
    description.componentType = kAudioUnitType_Output;
    description.componentSubType = subType;
    description.componentManufacturer = kAudioUnitManufacturer_Apple;
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    EXPECT(component != NULL, "AudioComponentFindNext finds the unit");
    AudioUnit made = NULL;
    EXPECT(component && AudioComponentInstanceNew(component, &made) == 0, "AudioComponentInstanceNew");
    return made;
}

static AudioStreamBasicDescription pcm(UInt32 channels, int isFloat) {
    AudioStreamBasicDescription format = {0};
    format.mSampleRate = RATE;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = isFloat ? kAudioFormatFlagsNativeFloatPacked
                                  : kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    format.mBitsPerChannel = isFloat ? 32 : 16;
    format.mChannelsPerFrame = channels;
    format.mBytesPerFrame = format.mBytesPerPacket = channels * (isFloat ? 4 : 2);
    format.mFramesPerPacket = 1;
    return format;
}

static OSStatus renderTone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                           UInt32 frames, AudioBufferList *data) {
    (void)refCon, (void)flags, (void)time, (void)bus;
    SInt16 *samples = data->mBuffers[0].mData;
    for (UInt32 frame = 0; frame < frames; frame++, phase++) {
        SInt16 value = (SInt16)lrint(0.5 * 32767 * sin(2 * M_PI * 440 * (double)phase / RATE));
        samples[2 * frame] = samples[2 * frame + 1] = value;
    }
    atomic_store(&lastFrames, (int)frames);
    return 0;
}

static void runningChanged(void *refCon, AudioUnit inUnit, AudioUnitPropertyID id, AudioUnitScope scope,
                           AudioUnitElement element) {
    (void)refCon, (void)scope, (void)element;
    UInt32 running = 0, size = sizeof(running);
    AudioUnitGetProperty(inUnit, id, kAudioUnitScope_Global, 0, &running, &size);
    atomic_store(&lastRunning, (int)running);
    say("running %ld", (long)running);
}

/* Whether the IsRunning listener has heard `running` within 2 s. */
static int waitForRunning(int running) {
    for (int i = 0; i < 200 && atomic_load(&lastRunning) != running; i++) usleep(10000);
    return atomic_load(&lastRunning) == running;
}

static void interruption(void *clientData, UInt32 state) {
    (void)clientData;
    if (state == kAudioSessionBeginInterruption) {
        say("interruption begin", 0);
        return;
    }
    AudioSessionInterruptionType type = 0;
    UInt32 size = sizeof(type);
    AudioSessionGetProperty(kAudioSessionProperty_InterruptionType, &size, &type);
    if (type == kAudioSessionInterruptionType_ShouldResume && unit) {
        say("interruption end: restart %ld", (long)AudioOutputUnitStart(unit));
    } else {
        say("interruption end: not resuming", 0);
    }
}

/* SIGUSR1 (from the tests, once they have heard what they need) ends the playing early. */
static volatile sig_atomic_t enough;
static void onEnough(int signal) { (void)signal; enough = 1; }

static void playFor(int seconds) {
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    signal(SIGUSR1, onEnough);
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL); /* the test's thread may have started us with it blocked */
    for (int i = 0; i < seconds * 100 && !enough; i++) usleep(10000);
}

static int tone(int seconds) {
    EXPECT(AudioSessionInitialize(NULL, NULL, interruption, NULL) == 0, "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category) == 0, "category");
    Float32 duration = 0.005f;
    AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, sizeof(duration), &duration);
    unit = newUnit(kAudioUnitSubType_RemoteIO);
    AudioStreamBasicDescription format = pcm(2, 0);
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format,
                                sizeof(format)) == 0,
           "StreamFormat");
    AURenderCallbackStruct callback = {renderTone, NULL};
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                sizeof(callback)) == 0,
           "SetRenderCallback");
    EXPECT(AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, NULL) == 0,
           "IsRunning listener");
    EXPECT(AudioUnitInitialize(unit) == 0, "AudioUnitInitialize");
    say("start %ld", (long)AudioOutputUnitStart(unit));
    for (int i = 0; i < 100 && atomic_load(&lastFrames) == 0; i++) usleep(10000);
    say("render callback asked for %ld frames", (long)atomic_load(&lastFrames));
    playFor(seconds);
    AudioUnit gone = unit;
    unit = NULL;
    say("dispose %ld", (long)AudioComponentInstanceDispose(gone));
    sleep(2);
    return failures ? 1 : 0;
}

static float recorded[RATE * 3 / 2];
static atomic_int recordedFrames;

static OSStatus inputReady(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                           UInt32 frames, AudioBufferList *unused) {
    (void)refCon, (void)unused;
    /* baresip's way: the unit's own buffer (mData NULL), rendered from the input bus. */
    AudioBufferList list = {1, {{1, 0, NULL}}};
    OSStatus status = AudioUnitRender(unit, flags, time, bus, frames, &list);
    if (status != 0) return status;
    int at = atomic_load(&recordedFrames);
    int room = (int)(sizeof(recorded) / sizeof(recorded[0])) - at;
    int count = (int)frames < room ? (int)frames : room;
    memcpy(recorded + at, list.mBuffers[0].mData, (size_t)count * sizeof(float));
    atomic_store(&recordedFrames, at + count);
    return 0;
}

static OSStatus renderSilence(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                              UInt32 frames, AudioBufferList *data) {
    (void)refCon, (void)time, (void)bus;
    memset(data->mBuffers[0].mData, 0, frames * 4);
    *flags |= kAudioUnitRenderAction_OutputIsSilence;
    return 0;
}

static double goertzel(const float *samples, int count, double frequency) {
    double coefficient = 2 * cos(2 * M_PI * frequency / RATE), previous = 0, beforePrevious = 0;
    for (int i = 0; i < count; i++) {
        double current = samples[i] + coefficient * previous - beforePrevious;
        beforePrevious = previous;
        previous = current;
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
}

static int voice(void) {
    EXPECT(AudioSessionInitialize(NULL, NULL, NULL, NULL) == 0, "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_PlayAndRecord;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category) == 0, "category");
    UInt32 mix = 1;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_OverrideCategoryMixWithOthers, sizeof(mix), &mix) == 0, "mix");
    unit = newUnit(kAudioUnitSubType_VoiceProcessingIO);
    UInt32 on = 1;
    EXPECT(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof(on)) == 0,
           "EnableIO on the input bus");
    AudioStreamBasicDescription in = pcm(1, 1), out = pcm(1, 1);
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &in, sizeof(in)) == 0,
           "the microphone's format");
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &out, sizeof(out)) == 0,
           "the speaker's format");
    AURenderCallbackStruct input = {inputReady, NULL}, render = {renderSilence, NULL};
    EXPECT(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 1, &input,
                                sizeof(input)) == 0,
           "SetInputCallback");
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &render,
                                sizeof(render)) == 0,
           "SetRenderCallback");
    EXPECT(AudioUnitInitialize(unit) == 0 && AudioOutputUnitStart(unit) == 0, "started");
    int total = (int)(sizeof(recorded) / sizeof(recorded[0]));
    for (int i = 0; i < 1000 && atomic_load(&recordedFrames) < total; i++) usleep(10000);
    AudioOutputUnitStop(unit);
    AudioComponentInstanceDispose(unit);
    EXPECT(atomic_load(&recordedFrames) == total, "1.5 s recorded");
    const float *last = recorded + total - RATE;
    double sum = 0;
    for (int i = 0; i < RATE; i++) sum += (double)last[i] * last[i];
    printf("recorded %.2f dBFS; 440 Hz %.3g, 330 Hz %.3g, 550 Hz %.3g\n", 10 * log10(sum / RATE * 2),
           goertzel(last, RATE, 440), goertzel(last, RATE, 330), goertzel(last, RATE, 550));
    return failures ? 1 : 0;
}

static int checks(void) {
    /* Discovery: both I/O units and the converter (SO9), in order, a 0 field matching anything; no other unit. */
    AudioComponentDescription any = {0}, mixer = {kAudioUnitType_Mixer, 0, 0, 0, 0};
    AudioComponent first = AudioComponentFindNext(NULL, &any);
    AudioComponent second = first ? AudioComponentFindNext(first, &any) : NULL;
    AudioComponentDescription found = {0};
    EXPECT(first && AudioComponentGetDescription(first, &found) == 0 && found.componentSubType == kAudioUnitSubType_RemoteIO,
           "RemoteIO found first");
    EXPECT(second && AudioComponentGetDescription(second, &found) == 0 &&
               found.componentSubType == kAudioUnitSubType_VoiceProcessingIO,
           "VoiceProcessingIO next");
    AudioComponent third = second ? AudioComponentFindNext(second, &any) : NULL;
    EXPECT(third && AudioComponentGetDescription(third, &found) == 0 && found.componentType == kAudioUnitType_FormatConverter &&
               found.componentSubType == kAudioUnitSubType_AUConverter,
           "the AUConverter next (SO9)");
    EXPECT(third && AudioComponentFindNext(third, &any) == NULL, "nothing after them");
    EXPECT(AudioComponentFindNext(NULL, &mixer) == NULL, "no mixer unit");

    /* pjsip's set-up: VoiceProcessingIO, input on, 16-bit mono at 16 kHz both ways, read back. */
    AudioUnit voiceUnit = newUnit(kAudioUnitSubType_VoiceProcessingIO);
    UInt32 on = 1, size;
    EXPECT(AudioUnitSetProperty(voiceUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on,
                                sizeof(on)) == 0,
           "EnableIO");
    AudioStreamBasicDescription format = pcm(1, 0), back;
    format.mSampleRate = 16000;
    EXPECT(AudioUnitSetProperty(voiceUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format,
                                sizeof(format)) == 0 &&
               AudioUnitSetProperty(voiceUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format,
                                    sizeof(format)) == 0,
           "StreamFormat set on both buses");
    size = sizeof(back);
    EXPECT(AudioUnitGetProperty(voiceUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &back, &size) ==
                   0 &&
               back.mSampleRate == 16000 && back.mChannelsPerFrame == 1 && back.mBitsPerChannel == 16 &&
               back.mBytesPerFrame == 2,
           "kAudioUnitProperty_StreamFormat reads back what was set");
    AudioStreamBasicDescription aac = format;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    EXPECT_STATUS(AudioUnitSetProperty(voiceUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &aac,
                                       sizeof(aac)),
                  kAudioUnitErr_FormatNotSupported, "a compressed format");
    EXPECT_STATUS(AudioOutputUnitStart(voiceUnit), kAudioUnitErr_Uninitialized, "start before AudioUnitInitialize");
    UInt32 value = 0;
    size = sizeof(value);
    EXPECT_STATUS(AudioUnitGetProperty(voiceUnit, 0x12345, kAudioUnitScope_Global, 0, &value, &size),
                  kAudioUnitErr_InvalidProperty, "an unknown property");
    AudioBufferList list = {1, {{1, 0, NULL}}};
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp time = {0};
    EXPECT_STATUS(AudioUnitRender(voiceUnit, &flags, &time, 1, 160, &list), kAudioUnitErr_CannotDoInCurrentContext,
                  "AudioUnitRender outside the unit's callbacks");
    EXPECT_STATUS(AudioUnitRender(voiceUnit, &flags, &time, 0, 160, &list), kAudioUnitErr_InvalidElement,
                  "AudioUnitRender on the output bus");
    EXPECT(AudioUnitInitialize(voiceUnit) == 0, "AudioUnitInitialize");
    EXPECT_STATUS(AudioUnitSetProperty(voiceUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on,
                                       sizeof(on)),
                  kAudioUnitErr_Initialized, "EnableIO once initialized");
    EXPECT(AudioComponentInstanceDispose(voiceUnit) == 0, "AudioComponentInstanceDispose");
    EXPECT_STATUS(AudioOutputUnitStart(voiceUnit), kAudio_ParamError, "a disposed unit");

    /* RemoteIO on the simulated device: the render callback is asked for the IO buffer's frames. */
    Float32 duration = 0.01f;
    AudioSessionInitialize(NULL, NULL, NULL, NULL);
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);
    AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, sizeof(duration), &duration);
    unit = newUnit(kAudioUnitSubType_RemoteIO);
    AudioStreamBasicDescription stereo = pcm(2, 0);
    AURenderCallbackStruct callback = {renderTone, NULL};
    EXPECT(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereo,
                                sizeof(stereo)) == 0 &&
               AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                    sizeof(callback)) == 0 &&
               AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, NULL) == 0,
           "RemoteIO set up");
    EXPECT(AudioUnitInitialize(unit) == 0 && AudioOutputUnitStart(unit) == 0, "RemoteIO started");
    for (int i = 0; i < 200 && atomic_load(&lastFrames) == 0; i++) usleep(10000);
    Float32 actual = 0; /* the session's, now that the unit's start activated it */
    size = sizeof(actual);
    AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareIOBufferDuration, &size, &actual);
    int expected = (int)lrint(actual * RATE);
    printf("IO buffer %.4f s: the render callback asked for %d frames\n", actual, atomic_load(&lastFrames));
    EXPECT(atomic_load(&lastFrames) == expected, "the render callback is asked for the IO buffer duration in frames");
    EXPECT(atomic_load(&lastRunning) == 1, "the IsRunning listener heard 1");
    EXPECT(AudioOutputUnitStop(unit) == 0 && atomic_load(&lastRunning) == 0, "stopped: IsRunning 0");
    EXPECT(AudioComponentInstanceDispose(unit) == 0, "disposed");

    /* VoiceProcessingIO, input on, stopped by a call as RemoteIO is (SO5, I1): IsRunning 0, not
     * started during the call, started again after it. */
    category = kAudioSessionCategory_PlayAndRecord;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category) == 0,
           "PlayAndRecord");
    unit = newUnit(kAudioUnitSubType_VoiceProcessingIO);
    EXPECT(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof(on)) == 0 &&
               AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereo,
                                    sizeof(stereo)) == 0 &&
               AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                    sizeof(callback)) == 0 &&
               AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, runningChanged, NULL) == 0,
           "VoiceProcessingIO set up");
    EXPECT(AudioUnitInitialize(unit) == 0 && AudioOutputUnitStart(unit) == 0, "VoiceProcessingIO started");
    EXPECT(waitForRunning(1), "its IsRunning listener heard 1");
    EXPECT(AudioSessionSimulateSystemEvent("call begin") == 0, "a call begins");
    EXPECT(waitForRunning(0), "the call stopped it: IsRunning 0");
    EXPECT(AudioOutputUnitStart(unit) != 0, "not started during the call");
    EXPECT(AudioSessionSimulateSystemEvent("call end") == 0, "the call ends");
    EXPECT(AudioOutputUnitStart(unit) == 0 && waitForRunning(1), "started again after the call");
    EXPECT(AudioOutputUnitStop(unit) == 0 && waitForRunning(0), "stopped");
    EXPECT(AudioComponentInstanceDispose(unit) == 0, "disposed");
    if (failures == 0) printf("audio unit checks passed\n");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "tone") == 0) return tone(atoi(argv[2]));
    if (argc >= 2 && strcmp(argv[1], "voice") == 0) return voice();
    if (argc >= 2 && strcmp(argv[1], "checks") == 0) return checks();
    fprintf(stderr, "usage: unit-app tone SECONDS | voice | checks\n");
    return 2;
}
