/* Apple's header names for the parts this system does not implement (issue 29): code that
 * includes AudioToolbox/AudioQueue.h, AudioToolbox/AudioFile.h and AudioUnit/AudioUnit.h and
 * uses only Audio Session Services builds and runs; it may name their types and constants.
 * (scripts/test also checks that a call to one of their functions fails to compile, naming the
 * alternative.) */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioUnit/AudioUnit.h>
#include <stdio.h>

#include "check.h"

/* What a game's audio controller keeps around, though on Linux it never opens a queue or a unit. */
struct Engine {
    AudioQueueRef queue;
    AudioQueueBufferRef buffers[3];
    AudioFileID file;
    AudioUnit remoteIO;
    AudioComponentDescription description;
    AudioStreamBasicDescription format;
};

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
    EXPECT(engine.queue == NULL && engine.file == NULL && engine.remoteIO == NULL, "nothing opened");

    /* The session itself works as on iOS. */
    EXPECT(AudioSessionInitialize(NULL, NULL, NULL, NULL) == noErr, "AudioSessionInitialize");
    EXPECT(failures == 0, "the constants");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category) == noErr,
          "set the category");
    EXPECT(AudioSessionSetActive(true) == noErr, "activate");
    printf("apple_headers: AudioQueue.h, AudioFile.h and AudioUnit.h included; the session works\n");
    return failures;
}
