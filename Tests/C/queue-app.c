/*
 * An app that plays and records through Audio Queue Services (SPEC §19 SO4), as iOS code does.
 *
 *   queue-app play SECONDS    a 440 Hz tone at -6 dBFS (16-bit stereo, 3 buffers of 20 ms); after an
 *                             interruption that ends with should-resume it starts the queue again;
 *                             then (or at SIGUSR1) disposes of the queue and lives 2 s more
 *   queue-app record          records 1.5 s (float mono) and prints its level and 440 Hz's share
 *   queue-app checks          bad input and the stop modes (run with AUDIOSESSION_RENDER_DIR: the
 *                             simulated device); exit status 0 when every check passed
 *
 * Every event is a line on stdout, for the tests to wait for.
 */
#include <AudioQueueServices.h>
#include <AudioSessionServices.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

enum { RATE = 48000, FRAMES = RATE / 50 }; /* 20 ms */

static AudioQueueRef queue;
static atomic_int keepPlaying = 1, callbacks, runningChanges, lastRunning = -1;
static long phase;

static void say(const char *format, long a, long b) {
    printf(format, a, b);
    printf("\n");
    fflush(stdout);
}

static void fillTone(AudioQueueBufferRef buffer) {
    SInt16 *samples = buffer->mAudioData;
    for (int frame = 0; frame < FRAMES; frame++, phase++) {
        SInt16 value = (SInt16)lrint(0.5 * 32767 * sin(2 * M_PI * 440 * (double)phase / RATE));
        samples[2 * frame] = samples[2 * frame + 1] = value;
    }
    buffer->mAudioDataByteSize = FRAMES * 4;
}

static void output(void *userData, AudioQueueRef inQueue, AudioQueueBufferRef buffer) {
    (void)userData;
    atomic_fetch_add(&callbacks, 1);
    if (!atomic_load(&keepPlaying)) return;
    fillTone(buffer);
    AudioQueueEnqueueBuffer(inQueue, buffer, 0, NULL);
}

static void runningChanged(void *userData, AudioQueueRef inQueue, AudioQueuePropertyID id) {
    (void)userData;
    UInt32 running = 0, size = sizeof(running);
    OSStatus status = AudioQueueGetProperty(inQueue, id, &running, &size);
    atomic_store(&lastRunning, (int)running);
    atomic_fetch_add(&runningChanges, 1);
    say("running %ld (status %ld)", (long)running, (long)status);
}

static void interruption(void *clientData, UInt32 state) {
    (void)clientData;
    if (state == kAudioSessionBeginInterruption) {
        say("interruption begin", 0, 0);
        return;
    }
    AudioSessionInterruptionType type = 0;
    UInt32 size = sizeof(type);
    AudioSessionGetProperty(kAudioSessionProperty_InterruptionType, &size, &type);
    if (type == kAudioSessionInterruptionType_ShouldResume && queue) {
        /* The queue stopped; the app starts it again, with its buffers enqueued anew. */
        say("interruption end: restart %ld", (long)AudioQueueStart(queue, NULL), 0);
    } else {
        say("interruption end: not resuming", 0, 0);
    }
}

static AudioStreamBasicDescription pcm16Stereo(void) {
    AudioStreamBasicDescription format = {0};
    format.mSampleRate = RATE;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;
    format.mBitsPerChannel = 16;
    format.mChannelsPerFrame = 2;
    format.mBytesPerFrame = format.mBytesPerPacket = 4;
    format.mFramesPerPacket = 1;
    return format;
}

static AudioQueueBufferRef buffers[3];

static void newToneQueue(void) {
    AudioStreamBasicDescription format = pcm16Stereo();
    EXPECT(AudioQueueNewOutput(&format, output, NULL, NULL, NULL, 0, &queue) == 0, "AudioQueueNewOutput");
    EXPECT(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, runningChanged, NULL) == 0, "listener");
    for (int i = 0; i < 3; i++) {
        EXPECT(AudioQueueAllocateBuffer(queue, FRAMES * 4, &buffers[i]) == 0, "AudioQueueAllocateBuffer");
        fillTone(buffers[i]);
        EXPECT(AudioQueueEnqueueBuffer(queue, buffers[i], 0, NULL) == 0, "AudioQueueEnqueueBuffer");
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

static int play(int seconds) {
    EXPECT(AudioSessionInitialize(NULL, NULL, interruption, NULL) == 0, "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category) == 0, "category");
    newToneQueue();
    say("start %ld", (long)AudioQueueStart(queue, NULL), 0);
    playFor(seconds);
    AudioQueueRef gone = queue;
    queue = NULL;
    say("dispose %ld", (long)AudioQueueDispose(gone, 1), 0);
    sleep(2);
    return 0;
}

static float recorded[RATE * 3 / 2];
static atomic_int recordedFrames;

static void input(void *userData, AudioQueueRef inQueue, AudioQueueBufferRef buffer, const AudioTimeStamp *start,
                  UInt32 packets, const AudioStreamPacketDescription *descriptions) {
    (void)userData, (void)start, (void)packets, (void)descriptions;
    int frames = (int)(buffer->mAudioDataByteSize / sizeof(float));
    int at = atomic_load(&recordedFrames);
    int room = (int)(sizeof(recorded) / sizeof(recorded[0])) - at;
    if (frames > room) frames = room;
    memcpy(recorded + at, buffer->mAudioData, (size_t)frames * sizeof(float));
    atomic_store(&recordedFrames, at + frames);
    if (room > frames) AudioQueueEnqueueBuffer(inQueue, buffer, 0, NULL);
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

static int record(void) {
    EXPECT(AudioSessionInitialize(NULL, NULL, NULL, NULL) == 0, "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_PlayAndRecord;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category) == 0, "category");
    UInt32 mix = 1;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_OverrideCategoryMixWithOthers, sizeof(mix), &mix) == 0, "mix");
    AudioStreamBasicDescription format = {0};
    format.mSampleRate = RATE;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagsNativeFloatPacked;
    format.mBitsPerChannel = 32;
    format.mChannelsPerFrame = 1;
    format.mBytesPerFrame = format.mBytesPerPacket = 4;
    format.mFramesPerPacket = 1;
    EXPECT(AudioQueueNewInput(&format, input, NULL, NULL, NULL, 0, &queue) == 0, "AudioQueueNewInput");
    for (int i = 0; i < 3; i++) {
        AudioQueueBufferRef buffer;
        EXPECT(AudioQueueAllocateBuffer(queue, FRAMES * 4, &buffer) == 0, "AudioQueueAllocateBuffer");
        EXPECT(AudioQueueEnqueueBuffer(queue, buffer, 0, NULL) == 0, "AudioQueueEnqueueBuffer");
    }
    EXPECT(AudioQueueStart(queue, NULL) == 0, "AudioQueueStart (input)");
    int total = (int)(sizeof(recorded) / sizeof(recorded[0]));
    for (int i = 0; i < 1000 && atomic_load(&recordedFrames) < total; i++) usleep(10000);
    AudioQueueStop(queue, 1);
    AudioQueueDispose(queue, 1);
    int frames = atomic_load(&recordedFrames);
    EXPECT(frames == total, "1.5 s recorded");
    /* The last second: the first half second may hold the server's start. */
    const float *last = recorded + total - RATE;
    double sum = 0;
    for (int i = 0; i < RATE; i++) sum += (double)last[i] * last[i];
    double level = 10 * log10(sum / RATE * 2); /* dBFS of a sine: a full-scale sine is 0 */
    printf("recorded %.2f dBFS; 440 Hz %.3g, 330 Hz %.3g, 550 Hz %.3g\n", level, goertzel(last, RATE, 440),
           goertzel(last, RATE, 330), goertzel(last, RATE, 550));
    return failures ? 1 : 0;
}

static void noOutput(void *userData, AudioQueueRef inQueue, AudioQueueBufferRef buffer) {
    (void)userData, (void)inQueue, (void)buffer;
}

static atomic_int blocked;

/* A callback that blocks for a second, as a badly written app's may. */
static void blockingOutput(void *userData, AudioQueueRef inQueue, AudioQueueBufferRef buffer) {
    (void)userData, (void)inQueue, (void)buffer;
    atomic_fetch_add(&blocked, 1);
    sleep(1);
}

static double seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void waitForRunning(int running, int seconds) {
    for (int i = 0; i < seconds * 100 && atomic_load(&lastRunning) != running; i++) usleep(10000);
}

static int checks(void) {
    AudioStreamBasicDescription format = pcm16Stereo();
    AudioQueueRef other = NULL, bad = NULL;
    /* Bad input: Apple's error codes, nothing made. */
    AudioStreamBasicDescription aac = format;
    aac.mFormatID = kAudioFormatMPEG4AAC;
    EXPECT(AudioQueueNewOutput(&aac, noOutput, NULL, NULL, NULL, 0, &bad) == kAudioFormatUnsupportedDataFormatError,
          "a compressed format is 'fmt?'");
    AudioStreamBasicDescription none = format;
    none.mChannelsPerFrame = 0;
    EXPECT(AudioQueueNewOutput(&none, noOutput, NULL, NULL, NULL, 0, &bad) == kAudioFormatUnsupportedDataFormatError,
          "0 channels is 'fmt?'");
    EXPECT(AudioQueueNewOutput(&format, NULL, NULL, NULL, NULL, 0, &bad) == kAudio_ParamError, "a NULL callback");
    EXPECT(bad == NULL, "nothing made of bad input");

    newToneQueue();
    EXPECT(AudioQueueEnqueueBuffer(queue, buffers[0], 0, NULL) == kAudioQueueErr_BufferInQueue, "a buffer enqueued twice");
    EXPECT(AudioQueueNewOutput(&format, noOutput, NULL, NULL, NULL, 0, &other) == 0, "a second queue");
    EXPECT(AudioQueueEnqueueBuffer(other, buffers[1], 0, NULL) == kAudioQueueErr_InvalidBuffer, "another queue's buffer");
    AudioQueueParameterValue volume = 0;
    EXPECT(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5f) == 0 &&
              AudioQueueGetParameter(queue, kAudioQueueParam_Volume, &volume) == 0 && volume == 0.5f,
          "kAudioQueueParam_Volume");
    EXPECT(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 2) == kAudioQueueErr_InvalidPropertyValue, "volume 2");
    AudioStreamBasicDescription back;
    UInt32 size = sizeof(back);
    EXPECT(AudioQueueGetProperty(queue, kAudioQueueProperty_StreamDescription, &back, &size) == 0 &&
              back.mSampleRate == RATE && back.mChannelsPerFrame == 2 && back.mBitsPerChannel == 16,
          "kAudioQueueProperty_StreamDescription reads the format back");

    /* Stop(false) plays what is queued: every buffer comes back, then IsRunning is 0. */
    atomic_store(&keepPlaying, 0);
    EXPECT(AudioQueueStart(queue, NULL) == 0, "AudioQueueStart");
    waitForRunning(1, 2);
    EXPECT(atomic_load(&lastRunning) == 1, "the IsRunning listener hears 1");
    EXPECT(AudioQueueStop(queue, 0) == 0, "AudioQueueStop(false)");
    waitForRunning(0, 2);
    EXPECT(atomic_load(&lastRunning) == 0, "IsRunning 0 once what was queued has played");
    EXPECT(atomic_load(&callbacks) == 3, "Stop(false): all 3 queued buffers played and handed back");
    AudioTimeStamp time;
    EXPECT(AudioQueueGetCurrentTime(queue, NULL, &time, NULL) == 0 && time.mSampleTime >= 3 * FRAMES - 1,
          "GetCurrentTime: the 3 buffers' frames were played");
    printf("stop(false): %d callbacks, %.0f frames played\n", atomic_load(&callbacks), time.mSampleTime);

    /* Stop(true) does not play what is queued: three buffers of a second each (more than a sound
     * server takes ahead), stopped a tenth of a second after the start: none is handed back played,
     * and each is the app's again. */
    AudioQueueBufferRef longBuffers[3];
    for (int i = 0; i < 3; i++) {
        EXPECT(AudioQueueAllocateBuffer(queue, RATE * 4, &longBuffers[i]) == 0, "a second's buffer");
        memset(longBuffers[i]->mAudioData, 0, RATE * 4);
        longBuffers[i]->mAudioDataByteSize = RATE * 4;
        EXPECT(AudioQueueEnqueueBuffer(queue, longBuffers[i], 0, NULL) == 0, "enqueued");
    }
    atomic_store(&callbacks, 0);
    EXPECT(AudioQueueStart(queue, NULL) == 0, "started again");
    usleep(100000);
    EXPECT(AudioQueueStop(queue, 1) == 0, "Stop(true)");
    usleep(200000);
    EXPECT(atomic_load(&callbacks) == 0, "Stop(true): nothing queued was played to its end");
    for (int i = 0; i < 3; i++) {
        EXPECT(AudioQueueEnqueueBuffer(queue, longBuffers[i], 0, NULL) == 0, "its buffers are the app's again");
    }

    /* Disposed: the handle is no queue any more. */
    EXPECT(AudioQueueDispose(queue, 1) == 0, "AudioQueueDispose");
    EXPECT(AudioQueueEnqueueBuffer(queue, buffers[0], 0, NULL) == kAudio_ParamError, "enqueue after Dispose");
    EXPECT(AudioQueueStart(queue, NULL) == kAudio_ParamError, "start after Dispose");
    EXPECT(AudioQueueDispose(other, 1) == 0, "the second queue disposed");
    /* A callback that blocks for a second: nothing deadlocks; Stop and Dispose return once it has. */
    AudioQueueRef slow = NULL;
    AudioQueueBufferRef slowBuffer;
    EXPECT(AudioQueueNewOutput(&format, blockingOutput, NULL, NULL, NULL, 0, &slow) == 0 &&
               AudioQueueAllocateBuffer(slow, FRAMES * 4, &slowBuffer) == 0,
           "a queue with a blocking callback");
    fillTone(slowBuffer);
    AudioQueueEnqueueBuffer(slow, slowBuffer, 0, NULL);
    EXPECT(AudioQueueStart(slow, NULL) == 0, "started");
    for (int i = 0; i < 200 && atomic_load(&blocked) == 0; i++) usleep(10000);
    double before = seconds();
    EXPECT(AudioQueueStop(slow, 1) == 0 && AudioQueueDispose(slow, 1) == 0, "stopped and disposed while it blocks");
    printf("stop and dispose during a blocking callback took %.2f s\n", seconds() - before);
    EXPECT(atomic_load(&blocked) == 1 && seconds() - before < 1.5, "they waited for the callback, no longer");
    if (failures == 0) printf("audio queue checks passed\n");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "play") == 0) return play(atoi(argv[2]));
    if (argc >= 2 && strcmp(argv[1], "record") == 0) return record();
    if (argc >= 2 && strcmp(argv[1], "checks") == 0) return checks();
    fprintf(stderr, "usage: queue-app play SECONDS | record | checks\n");
    return 2;
}
