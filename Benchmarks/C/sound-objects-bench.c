/*
 * The C sound objects' timing (SPEC §19 SO4–SO6, issue 48), on a real sound server, measured on
 * the speaker's monitor (a recording of what the server plays), not taken from the API:
 *
 *   1. an Audio Queue with 3 buffers of 10 ms playing a tone for SECONDS: the gaps heard (late
 *      buffers: the server ran dry), and the period between callbacks (p50, p99, max);
 *   2. RemoteIO at a 5 ms IO buffer: the period between render callbacks (p50, p99);
 *   3. VoiceProcessingIO's round trip: a click rendered → heard by the microphone (the monitor,
 *      remapped as a source) → seen in the input callback (p50, p99);
 *   4. AudioServicesPlaySystemSound → the first sample on the monitor, beside paplay (p50, p99).
 *
 *   sound-objects-bench SECONDS DIR   (PULSE_SERVER names the server; its sink "speaker", its
 *                                     source "mic" the speaker's monitor; the click's WAV in DIR)
 * Run by scripts/benchmark against a headless PulseAudio, embedded (no daemon).
 */
#include <AudioQueueServices.h>
#include <AudioSessionServices.h>
#include <AudioUnitServices.h>
#include <SystemSoundServices.h>
#include <math.h>
#include <pthread.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { RATE = 48000, CHUNK = 240 }; /* the monitor is read in 5 ms chunks */

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *values, int count, double p) {
    if (count == 0) return NAN;
    qsort(values, (size_t)count, sizeof(double), compare);
    int index = (int)ceil(p * count) - 1;
    return values[index < 0 ? 0 : index];
}

/* MARK: The monitor: what the speaker plays, read in chunks on a thread of its own. */

static pa_simple *monitor;
static atomic_int monitorRunning = 1;
static atomic_long chunksLoud, chunksQuiet, gaps;
static atomic_int counting;        /* count gaps while set */
static _Atomic double heardAt;     /* the first loud sample's time since armed (0: not yet) */
static atomic_int armed;
static int inGap, loudSeen;

static void *listen(void *unused) {
    (void)unused;
    float chunk[CHUNK];
    while (atomic_load(&monitorRunning)) {
        if (pa_simple_read(monitor, chunk, sizeof(chunk), NULL) < 0) break;
        double at = now();
        double sum = 0;
        int first = -1;
        for (int i = 0; i < CHUNK; i++) {
            sum += chunk[i] * chunk[i];
            if (first < 0 && fabsf(chunk[i]) > 0.05f) first = i;
        }
        int loud = sum / CHUNK > 0.001; /* above -30 dBFS of a sine */
        if (atomic_load(&armed) && first >= 0 && atomic_load(&heardAt) == 0) atomic_store(&heardAt, at); /* ≤ 5 ms late */
        if (atomic_load(&counting)) {
            if (loud) {
                loudSeen = 1;
                inGap = 0;
                atomic_fetch_add(&chunksLoud, 1);
            } else {
                atomic_fetch_add(&chunksQuiet, 1);
                if (loudSeen && !inGap) atomic_fetch_add(&gaps, 1);
                inGap = 1;
            }
        } else {
            inGap = loudSeen = 0;
        }
    }
    return NULL;
}

/* MARK: 1. The queue */

enum { QFRAMES = RATE / 100 }; /* 10 ms */
static double queuePeriods[100000];
static atomic_int queueCallbacks;
static double lastQueueCallback;
static long queuePhase;

static void fillQueue(void *userData, AudioQueueRef queue, AudioQueueBufferRef buffer) {
    (void)userData;
    double at = now();
    int n = atomic_load(&queueCallbacks);
    if (lastQueueCallback > 0 && n < 100000) queuePeriods[n] = (at - lastQueueCallback) * 1000;
    if (lastQueueCallback > 0) atomic_store(&queueCallbacks, n + 1);
    lastQueueCallback = at;
    float *samples = buffer->mAudioData;
    for (int i = 0; i < QFRAMES; i++, queuePhase++) samples[i] = 0.5f * (float)sin(2 * M_PI * 440 * queuePhase / RATE);
    buffer->mAudioDataByteSize = QFRAMES * sizeof(float);
    AudioQueueEnqueueBuffer(queue, buffer, 0, NULL);
}

static AudioStreamBasicDescription floatMono(void) {
    AudioStreamBasicDescription format = {RATE, kAudioFormatLinearPCM, kAudioFormatFlagsNativeFloatPacked, 4, 1, 4, 1, 32, 0};
    return format;
}

static void benchQueue(int seconds) {
    AudioStreamBasicDescription format = floatMono();
    AudioQueueRef queue;
    AudioQueueNewOutput(&format, fillQueue, NULL, NULL, NULL, 0, &queue);
    for (int i = 0; i < 3; i++) {
        AudioQueueBufferRef buffer;
        AudioQueueAllocateBuffer(queue, QFRAMES * sizeof(float), &buffer);
        fillQueue(NULL, queue, buffer);
    }
    lastQueueCallback = 0;
    atomic_store(&queueCallbacks, 0);
    OSStatus status = AudioQueueStart(queue, NULL);
    if (status != 0) {
        printf("queue: AudioQueueStart failed with %d\n", (int)status);
        return;
    }
    /* The first second is not measured: a fresh null sink takes its time to start consuming. */
    sleep(1);
    lastQueueCallback = 0;
    atomic_store(&queueCallbacks, 0);
    atomic_store(&counting, 1);
    sleep((unsigned)seconds);
    atomic_store(&counting, 0);
    AudioQueueStop(queue, 1);
    AudioQueueDispose(queue, 1);
    int n = atomic_load(&queueCallbacks);
    printf("queue, 3 x 10 ms buffers for %d s, the other core busy: %ld gaps heard (late buffers; target 0) in %ld "
           "chunks of 5 ms; callback period p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d callbacks)\n",
           seconds, atomic_load(&gaps), atomic_load(&chunksLoud) + atomic_load(&chunksQuiet),
           percentile(queuePeriods, n, 0.5), percentile(queuePeriods, n, 0.99), percentile(queuePeriods, n, 1.0), n);
}

/* MARK: 2. RemoteIO's render callback */

static double renderPeriods[100000];
static atomic_int renders;
static double lastRender;
static atomic_int renderFrames;

static OSStatus renderSilence(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                              UInt32 frames, AudioBufferList *data) {
    (void)refCon, (void)time, (void)bus;
    double at = now();
    int n = atomic_load(&renders);
    if (lastRender > 0 && n < 100000) {
        renderPeriods[n] = (at - lastRender) * 1000;
        atomic_store(&renders, n + 1);
    }
    lastRender = at;
    atomic_store(&renderFrames, (int)frames);
    memset(data->mBuffers[0].mData, 0, frames * 4);
    *flags |= kAudioUnitRenderAction_OutputIsSilence;
    return 0;
}

static AudioUnit newUnit(UInt32 subType) {
    AudioComponentDescription description = {kAudioUnitType_Output, subType, kAudioUnitManufacturer_Apple, 0, 0};
    AudioUnit unit = NULL;
    AudioComponentInstanceNew(AudioComponentFindNext(NULL, &description), &unit);
    return unit;
}

static void benchRemoteIO(int seconds) {
    Float32 duration = 0.005f;
    AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, sizeof(duration), &duration);
    AudioUnit unit = newUnit(kAudioUnitSubType_RemoteIO);
    AudioStreamBasicDescription format = floatMono();
    AURenderCallbackStruct callback = {renderSilence, NULL};
    AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof(format));
    AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof(callback));
    AudioUnitInitialize(unit);
    AudioOutputUnitStart(unit);
    sleep((unsigned)seconds);
    AudioOutputUnitStop(unit);
    AudioComponentInstanceDispose(unit);
    int n = atomic_load(&renders);
    double nominal = (double)atomic_load(&renderFrames) / RATE * 1000;
    printf("RemoteIO render callback at a %.2f ms IO buffer (%d frames): period p50 %.2f ms, p99 %.2f ms (%d callbacks)\n",
           nominal, atomic_load(&renderFrames), percentile(renderPeriods, n, 0.5), percentile(renderPeriods, n, 0.99), n);
}

/* MARK: 3. VoiceProcessingIO's round trip */

static AudioUnit voice;
static _Atomic double clickAt; /* when the click was rendered (0: none pending) */
static atomic_int clickPending;
static double trips[64];
static atomic_int tripCount;
static float voiceBuffer[RATE];

static OSStatus renderClick(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                            UInt32 frames, AudioBufferList *data) {
    (void)refCon, (void)flags, (void)time, (void)bus;
    float *samples = data->mBuffers[0].mData;
    memset(samples, 0, frames * 4);
    if (atomic_load(&clickPending) == 1) {
        for (UInt32 i = 0; i < frames && i < 48; i++) samples[i] = 0.8f * (float)sin(2 * M_PI * 1000 * i / RATE);
        atomic_store(&clickAt, now());
        atomic_store(&clickPending, 2);
    }
    return 0;
}

static OSStatus inputClick(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *time, UInt32 bus,
                           UInt32 frames, AudioBufferList *unused) {
    (void)refCon, (void)unused;
    AudioBufferList list = {1, {{1, frames * 4, voiceBuffer}}};
    if (AudioUnitRender(voice, flags, time, bus, frames, &list) != 0) return 0;
    if (atomic_load(&clickPending) != 2) return 0;
    for (UInt32 i = 0; i < frames; i++) {
        if (fabsf(voiceBuffer[i]) > 0.2f) {
            int n = atomic_load(&tripCount);
            if (n < 64) trips[n] = (now() - atomic_load(&clickAt)) * 1000;
            atomic_store(&tripCount, n + 1);
            atomic_store(&clickPending, 0);
            break;
        }
    }
    return 0;
}

static void benchVoice(int clicks) {
    UInt32 category = kAudioSessionCategory_PlayAndRecord;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);
    voice = newUnit(kAudioUnitSubType_VoiceProcessingIO);
    UInt32 on = 1;
    AudioUnitSetProperty(voice, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, sizeof(on));
    AudioStreamBasicDescription format = floatMono();
    AudioUnitSetProperty(voice, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof(format));
    AudioUnitSetProperty(voice, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format, sizeof(format));
    AURenderCallbackStruct render = {renderClick, NULL}, input = {inputClick, NULL};
    AudioUnitSetProperty(voice, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &render, sizeof(render));
    AudioUnitSetProperty(voice, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 1, &input, sizeof(input));
    AudioUnitInitialize(voice);
    OSStatus status = AudioOutputUnitStart(voice);
    if (status != 0) {
        printf("VoiceProcessingIO: start failed with %d\n", (int)status);
        return;
    }
    usleep(500000);
    for (int i = 0; i < clicks; i++) {
        atomic_store(&clickPending, 1);
        for (int w = 0; w < 200 && atomic_load(&clickPending) != 0; w++) usleep(5000);
        atomic_store(&clickPending, 0);
        usleep(300000);
    }
    AudioOutputUnitStop(voice);
    AudioComponentInstanceDispose(voice);
    int n = atomic_load(&tripCount);
    printf("VoiceProcessingIO round trip (render → speaker → microphone → input callback): p50 %.1f ms, p99 %.1f ms "
           "(%d of %d clicks heard)\n",
           percentile(trips, n, 0.5), percentile(trips, n, 0.99), n, clicks);
}

/* MARK: 4. A system sound, beside paplay */

static void put32(FILE *file, uint32_t value) { fwrite(&value, 4, 1, file); }
static void put16(FILE *file, uint16_t value) { fwrite(&value, 2, 1, file); }

/* 200 ms of 880 Hz at -6 dBFS, 16-bit mono. */
static void writeClick(const char *path) {
    FILE *file = fopen(path, "wb");
    uint32_t frames = RATE / 5;
    fwrite("RIFF", 1, 4, file);
    put32(file, 36 + frames * 2);
    fwrite("WAVEfmt ", 1, 8, file);
    put32(file, 16);
    put16(file, 1);
    put16(file, 1);
    put32(file, RATE);
    put32(file, RATE * 2);
    put16(file, 2);
    put16(file, 16);
    fwrite("data", 1, 4, file);
    put32(file, frames * 2);
    for (uint32_t i = 0; i < frames; i++) put16(file, (uint16_t)(int16_t)lrint(0.5 * 32767 * sin(2 * M_PI * 880 * i / RATE)));
    fclose(file);
}

static double waitHeard(double since) {
    for (int i = 0; i < 400 && atomic_load(&heardAt) == 0; i++) usleep(5000);
    double at = atomic_load(&heardAt);
    return at == 0 ? NAN : (at - since) * 1000;
}

static void benchSystemSound(const char *path, int rounds) {
    SystemSoundID sound;
    OSStatus status = AudioServicesCreateSystemSoundID(path, &sound);
    if (status != 0) {
        printf("system sound: create failed with %d\n", (int)status);
        return;
    }
    double ours[64], theirs[64];
    int n = rounds < 64 ? rounds : 64;
    for (int i = 0; i < n; i++) {
        atomic_store(&heardAt, 0);
        atomic_store(&armed, 1);
        double start = now();
        AudioServicesPlaySystemSound(sound);
        ours[i] = waitHeard(start);
        atomic_store(&armed, 0);
        usleep(600000);

        atomic_store(&heardAt, 0);
        atomic_store(&armed, 1);
        start = now();
        pid_t child = fork();
        if (child == 0) {
            execlp("paplay", "paplay", path, (char *)NULL);
            _exit(127);
        }
        theirs[i] = waitHeard(start);
        atomic_store(&armed, 0);
        waitpid(child, NULL, 0);
        usleep(300000);
    }
    AudioServicesDisposeSystemSoundID(sound);
    printf("AudioServicesPlaySystemSound → first sample on the monitor: p50 %.1f ms, p99 %.1f ms; paplay: p50 %.1f ms, "
           "p99 %.1f ms (%d rounds)\n",
           percentile(ours, n, 0.5), percentile(ours, n, 0.99), percentile(theirs, n, 0.5), percentile(theirs, n, 0.99), n);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: sound-objects-bench SECONDS DIR\n");
        return 2;
    }
    int seconds = atoi(argv[1]);
    pa_sample_spec spec = {PA_SAMPLE_FLOAT32LE, RATE, 1};
    pa_buffer_attr attributes = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, CHUNK * 4};
    int error = 0;
    monitor = pa_simple_new(NULL, "sound-objects-bench", PA_STREAM_RECORD, "speaker.monitor", "monitor", &spec, NULL,
                            &attributes, &error);
    if (!monitor) {
        fprintf(stderr, "sound-objects-bench: cannot record the speaker's monitor: %s\n", pa_strerror(error));
        return 1;
    }
    pthread_t listener;
    pthread_create(&listener, NULL, listen, NULL);
    AudioSessionInitialize(NULL, NULL, NULL, NULL);
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);
    benchQueue(seconds);
    benchRemoteIO(seconds < 10 ? seconds : 10);
    char click[4096];
    snprintf(click, sizeof(click), "%s/click.wav", argv[2]);
    writeClick(click);
    benchSystemSound(click, 20);
    benchVoice(20);
    atomic_store(&monitorRunning, 0);
    pthread_join(listener, NULL);
    pa_simple_free(monitor);
    return 0;
}
