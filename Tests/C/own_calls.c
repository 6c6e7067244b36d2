/* N3 in the C API: the route change an app's own call causes reaches a listener added right
 * after the call returns (as real code adds it: baresip's missed reason 3 before), embedded or
 * through a daemon. Twenty times: set mediaPlayback and activate; set playAndRecord (a route change
 * to itself, reason 3, category change); only then add a 'roch' listener.
 * Then only what a call caused waits for its return (issue 60): this program's main thread never
 * serves the main queue (a C program in a loop of its own, as baresip's re_main), yet another
 * party's interruption, right after a call of its own, is heard at once — not after the 100 ms a
 * call's own notifications may wait for a main queue nobody serves. Prints ok/FAIL; exits with
 * failures. */
#include "check.h"
#include <stdlib.h>
#include <time.h>

static atomic_int categoryChanges;
static atomic_int interruptions; /* begin and end, counted */

static void interruptionListener(void *data, UInt32 state) {
    (void)data;
    (void)state;
    atomic_fetch_add(&interruptions, 1);
}

static double nowMs(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Busy-waits on this (main) thread — no main queue, no run loop — until the count reaches value;
 * the milliseconds it took, or -1 after two seconds. */
static double spinUntil(atomic_int *flag, int value) {
    double start = nowMs();
    while (atomic_load(flag) < value) {
        if (nowMs() - start > 2000) return -1;
    }
    return nowMs() - start;
}

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void listener(void *data, AudioSessionPropertyID id, UInt32 size, const void *value) {
    (void)data;
    if (id != kAudioSessionProperty_AudioRouteChange || size != sizeof(AudioSessionRouteChange)) return;
    const AudioSessionRouteChange *change = value;
    if (change->reason == kAudioSessionRouteChangeReason_CategoryChange) atomic_fetch_add(&categoryChanges, 1);
}

int main(void) {
    EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, interruptionListener, NULL), 0, "initialized");
    int heard = 0;
    for (int run = 0; run < 20; run++) {
        setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_MediaPlayback);
        AudioSessionSetActive(1);
        usleep(200000); /* the set-up's own changes are delivered, to nobody */
        atomic_store(&categoryChanges, 0);
        if (setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_PlayAndRecord) != 0) continue;
        AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, listener, NULL);
        if (waitFor(&categoryChanges, 1)) heard++;
        AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_AudioRouteChange, listener, NULL);
        AudioSessionSetActive(0);
    }
    printf("   heard in %d runs of 20\n", heard);
    EXPECT(heard == 20, "N3: a listener added right after the call hears the route change it caused");

    /* Another party's interruption and its end, each right after a call of this app's main thread. */
    enum { trials = 10 };
    double began[trials], ended[trials];
    int lost = 0;
    setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_MediaPlayback);
    for (int run = 0; run < trials; run++) {
        AudioSessionSetActive(1); /* a call on the main thread: its own notifications may wait */
        int before = atomic_load(&interruptions);
        double start = nowMs();
        if (AudioSessionSimulateSystemEvent("call begin") != 0) { lost++; break; }
        double waited = spinUntil(&interruptions, before + 1);
        began[run] = waited < 0 ? 2000 : nowMs() - start;
        if (waited < 0) lost++;
        UInt32 category = kAudioSessionCategory_MediaPlayback; /* a call of its own during the interruption */
        AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category);
        start = nowMs();
        AudioSessionSimulateSystemEvent("call end");
        waited = spinUntil(&interruptions, before + 2);
        ended[run] = waited < 0 ? 2000 : nowMs() - start;
        if (waited < 0) lost++;
    }
    qsort(began, trials, sizeof(double), compareDoubles);
    qsort(ended, trials, sizeof(double), compareDoubles);
    printf("   another party's interruption heard after p50 %.1f ms (max %.1f), its end after p50 %.1f ms (max %.1f)\n",
           began[trials / 2], began[trials - 1], ended[trials / 2], ended[trials - 1]);
    EXPECT(lost == 0, "every interruption and its end heard, the main thread never serving its queue");
    /* The median, not every run: a loaded machine may delay one; the hold would delay them all. */
    EXPECT(began[trials / 2] < 50 && ended[trials / 2] < 50,
           "N3: another party's interruption and its end are not held for a main queue nobody serves (< 50 ms)");
    AudioSessionSetActive(0);
    printf(failures ? "%d C API own-call checks failed\n" : "all C API own-call checks passed\n", failures);
    return failures;
}
