/*
 * The microphone to the speaker through VoiceProcessingIO, as a softphone's audio path is built:
 * find the unit by its description, enable its input bus, and in the input callback render the
 * microphone into a ring that the render callback plays from. The sound server cancels the
 * speaker's echo where it can (PulseAudio's module-echo-cancel).
 *
 *   vpio_loopback [SECONDS]   loops back for SECONDS (default 5); use headphones
 *
 * Build: cc vpio_loopback.c $(pkg-config --cflags --libs AudioSessionServices)   (README: Using from C)
 */
#include <AudioSessionServices.h>
#include <AudioUnitServices.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { RATE = 16000, RING = RATE }; /* mono 16-bit at 16 kHz; a second of ring */

static AudioUnit unit;
static SInt16 ring[RING];
static atomic_long written, played;

static OSStatus microphone(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                           UInt32 frames, AudioBufferList *unused) {
    (void)refCon, (void)unused;
    AudioBufferList list = {1, {{1, 0, NULL}}}; /* NULL: the unit's own buffer */
    OSStatus status = AudioUnitRender(unit, flags, time, bus, frames, &list);
    if (status != 0) return status;
    const SInt16 *samples = list.mBuffers[0].mData;
    long at = atomic_load(&written);
    for (UInt32 i = 0; i < frames; i++) ring[(at + i) % RING] = samples[i];
    atomic_store(&written, at + frames);
    return 0;
}

static OSStatus speaker(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                        UInt32 frames, AudioBufferList *data) {
    (void)refCon, (void)flags, (void)time, (void)bus;
    SInt16 *samples = data->mBuffers[0].mData;
    long at = atomic_load(&played), available = atomic_load(&written) - at;
    for (UInt32 i = 0; i < frames; i++) samples[i] = (long)i < available ? ring[(at + i) % RING] : 0;
    atomic_store(&played, at + (available < frames ? available : frames));
    return 0;
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 5;
    AudioSessionInitialize(NULL, NULL, NULL, NULL);
    UInt32 category = kAudioSessionCategory_PlayAndRecord, mode = kAudioSessionMode_VoiceChat;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);
    AudioSessionSetProperty(kAudioSessionProperty_Mode, sizeof(mode), &mode);

    AudioComponentDescription description = {kAudioUnitType_Output, kAudioUnitSubType_VoiceProcessingIO,
                                             kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    if (component == NULL || AudioComponentInstanceNew(component, &unit) != 0) {
        fprintf(stderr, "vpio_loopback: no VoiceProcessingIO unit\n");
        return 1;
    }
    UInt32 on = 1;
    AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof(on));
    AudioStreamBasicDescription format = {RATE, kAudioFormatLinearPCM,
                                          kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                          2, 1, 2, 1, 16, 0};
    AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format, sizeof(format));
    AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof(format));
    AURenderCallbackStruct input = {microphone, NULL}, render = {speaker, NULL};
    AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 1, &input,
                         sizeof(input));
    AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &render, sizeof(render));
    OSStatus status = AudioUnitInitialize(unit);
    if (status == 0) status = AudioOutputUnitStart(unit); /* activates the session (IO1) */
    if (status != 0) {
        fprintf(stderr, "vpio_loopback: cannot start: %d\n", (int)status);
        return 1;
    }
    printf("looping the microphone back for %d s\n", seconds);
    fflush(stdout);
    sleep((unsigned)seconds);
    AudioOutputUnitStop(unit);
    AudioComponentInstanceDispose(unit);
    printf("looped back %ld frames\n", atomic_load(&played));
    return 0;
}
