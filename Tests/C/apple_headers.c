/* Apple's headers (issue 29): code that includes AudioToolbox/AudioQueue.h, AudioToolbox/AudioFile.h
 * and AudioUnit/AudioUnit.h builds and runs; it may name their types and constants. Audio Queues
 * are offered (SO4) with Apple's CoreFoundation run-loop arguments; for what is not offered,
 * scripts/test checks that a call to one of its functions fails to compile, naming the
 * alternative. */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioUnit/AudioUnit.h>
#include <stdio.h>

#include "check.h"

/* What a game's audio controller keeps around. */
struct Engine {
    AudioQueueRef queue;
    AudioQueueBufferRef buffers[3];
    AudioFileID file;
    AudioUnit remoteIO;
    AudioComponentDescription description;
    AudioStreamBasicDescription format;
};

static void output(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    (void)userData, (void)queue, (void)buffer;
}

int main(void) {
    struct Engine engine = {0};
    engine.description.componentType = kAudioUnitType_Output;
    engine.description.componentSubType = kAudioUnitSubType_RemoteIO;
    engine.description.componentManufacturer = kAudioUnitManufacturer_Apple;
    EXPECT(engine.description.componentType == 0x61756F75, "kAudioUnitType_Output is 'auou'");
    EXPECT(kAudioFileWAVEType == 0x57415645, "kAudioFileWAVEType is 'WAVE'");
    EXPECT(kAudioQueueProperty_IsRunning == 0x6171726E, "kAudioQueueProperty_IsRunning is 'aqrn'");
    EXPECT(kAudioQueueErr_CannotStart == -66681, "kAudioQueueErr_CannotStart");
    EXPECT(sizeof(AudioStreamPacketDescription) == 16, "AudioStreamPacketDescription's layout");
    EXPECT(engine.queue == NULL && engine.file == NULL && engine.remoteIO == NULL, "nothing opened yet");

    /* SO4: a queue made as iOS code makes it, with a run loop and its mode (accepted, ignored). */
    engine.format.mSampleRate = 44100;
    engine.format.mFormatID = kAudioFormatLinearPCM;
    engine.format.mFormatFlags = kAudioFormatFlagsNativeFloatPacked;
    engine.format.mBitsPerChannel = 32;
    engine.format.mChannelsPerFrame = 2;
    engine.format.mBytesPerFrame = engine.format.mBytesPerPacket = 8;
    engine.format.mFramesPerPacket = 1;
    EXPECT(AudioQueueNewOutput(&engine.format, output, &engine, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0,
                               &engine.queue) == noErr,
           "AudioQueueNewOutput with Apple's run-loop arguments");
    EXPECT(AudioQueueAllocateBuffer(engine.queue, 4096, &engine.buffers[0]) == noErr, "AudioQueueAllocateBuffer");
    EXPECT(engine.buffers[0]->mAudioDataBytesCapacity == 4096, "the buffer's capacity");
    EXPECT(AudioQueueDispose(engine.queue, true) == noErr, "AudioQueueDispose");

    /* SO6: a system sound from a CFURLRef, as iOS code makes it. */
    CFURLRef missing = CFURLCreateFromFileSystemRepresentation(
        kCFAllocatorDefault, (const UInt8 *)"/nonexistent/tap.caf", 20, false);
    SystemSoundID tap = 0;
    EXPECT(AudioServicesCreateSystemSoundID(missing, &tap) == kAudio_FileNotFoundError && tap == 0,
           "AudioServicesCreateSystemSoundID(CFURLRef) of a missing file");
    CFRelease(missing);
    EXPECT(AudioServicesCreateSystemSoundID(NULL, &tap) == kAudio_ParamError, "a NULL URL");

    /* The session itself works as on iOS. */
    EXPECT(AudioSessionInitialize(NULL, NULL, NULL, NULL) == noErr, "AudioSessionInitialize");
    EXPECT(failures == 0, "the constants");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category) == noErr,
          "set the category");
    EXPECT(AudioSessionSetActive(true) == noErr, "activate");
    printf("apple_headers: AudioQueue.h, AudioFile.h and AudioUnit.h included; a queue made; the session works\n");
    return failures;
}
