/*
 * A tone player written against Audio Queue Services, the way iOS samples play sound: three
 * buffers, each refilled and enqueued again by the output callback. An interruption stops the
 * queue; when it ends with should-resume, the player starts it again.
 *
 *   queue_player [SECONDS]    plays a 440 Hz tone for SECONDS (default 5)
 *
 * Build: cc queue_player.c $(pkg-config --cflags --libs AudioSessionServices) -lm   (README: Using from C)
 */
#include <AudioQueueServices.h>
#include <AudioSessionServices.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { RATE = 44100, FRAMES = RATE / 20, BUFFERS = 3 }; /* 50 ms buffers */

static AudioQueueRef queue;
static double phase;

/* Called on the library's queue thread when a buffer has played: fill it again, enqueue it. */
static void fill(void *userData, AudioQueueRef inQueue, AudioQueueBufferRef buffer) {
    (void)userData;
    float *samples = buffer->mAudioData;
    for (int frame = 0; frame < FRAMES; frame++) {
        samples[frame] = 0.25f * (float)sin(phase);
        phase += 2 * M_PI * 440 / RATE;
    }
    buffer->mAudioDataByteSize = FRAMES * sizeof(float);
    AudioQueueEnqueueBuffer(inQueue, buffer, 0, NULL);
}

static void interruption(void *clientData, UInt32 state) {
    (void)clientData;
    if (state == kAudioSessionBeginInterruption) {
        printf("interrupted: the queue stopped\n");
    } else {
        AudioSessionInterruptionType type = 0;
        UInt32 size = sizeof(type);
        AudioSessionGetProperty(kAudioSessionProperty_InterruptionType, &size, &type);
        if (type == kAudioSessionInterruptionType_ShouldResume) {
            printf("interruption over: %s\n", AudioQueueStart(queue, NULL) == 0 ? "playing again" : "cannot start");
        }
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 5;
    AudioSessionInitialize(NULL, NULL, interruption, NULL);
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);

    AudioStreamBasicDescription format = {0};
    format.mSampleRate = RATE;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagsNativeFloatPacked;
    format.mBitsPerChannel = 32;
    format.mChannelsPerFrame = 1;
    format.mBytesPerFrame = format.mBytesPerPacket = sizeof(float);
    format.mFramesPerPacket = 1;
    OSStatus status = AudioQueueNewOutput(&format, fill, NULL, NULL, NULL, 0, &queue);
    if (status != 0) {
        fprintf(stderr, "queue_player: AudioQueueNewOutput failed with %d\n", (int)status);
        return 1;
    }
    for (int i = 0; i < BUFFERS; i++) {
        AudioQueueBufferRef buffer;
        AudioQueueAllocateBuffer(queue, FRAMES * sizeof(float), &buffer);
        fill(NULL, queue, buffer); /* prime: fill and enqueue each buffer once */
    }
    status = AudioQueueStart(queue, NULL); /* activates the session (IO1) */
    if (status != 0) {
        fprintf(stderr, "queue_player: AudioQueueStart failed with %d\n", (int)status);
        return 1;
    }
    printf("playing a 440 Hz tone for %d s\n", seconds);
    fflush(stdout);
    sleep((unsigned)seconds);
    AudioQueueStop(queue, true);
    AudioQueueDispose(queue, true);
    printf("done\n");
    return 0;
}
