/*
 * A player written against Audio Session Services: it initializes with an interruption
 * listener, sets the MediaPlayback category, activates, and reports interruptions. Inside the
 * end callback it reads kAudioSessionProperty_InterruptionType and resumes when told it may.
 *
 *   player [SECONDS]          play (pretend to) for SECONDS (default 10), printing interruptions
 *   player --simulate-call    simulate a phone call to test the listener, then exit
 *
 * Build: cc player.c $(pkg-config --cflags --libs AudioSessionServices)   (README: Using from C)
 */
#include <AudioSessionServices.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int began, ended;

static void check(OSStatus status, const char *what) {
    if (status != kAudioSessionNoError) {
        fprintf(stderr, "player: %s failed with %d\n", what, (int)status);
        exit(1);
    }
}

/* Called on the library's event queue, one event at a time. */
static void interruptionListener(void *clientData, UInt32 state) {
    (void)clientData;
    if (state == kAudioSessionBeginInterruption) {
        printf("interruption began: pausing\n");
        atomic_store(&began, 1);
    } else {
        AudioSessionInterruptionType type = 0;
        UInt32 size = sizeof(type);
        OSStatus status = AudioSessionGetProperty(kAudioSessionProperty_InterruptionType, &size, &type);
        if (status != kAudioSessionNoError) {
            printf("interruption ended: type unreadable (%d)\n", (int)status);
        } else if (type == kAudioSessionInterruptionType_ShouldResume) {
            printf("interruption ended: type irsm (should resume); resuming: %s\n",
                   AudioSessionSetActive(1) == kAudioSessionNoError ? "playing" : "refused");
        } else {
            printf("interruption ended: type !rsm (should not resume); staying paused\n");
        }
        atomic_store(&ended, 1);
    }
    fflush(stdout);
}

/* Waits up to five seconds for a flag the listener sets. */
static int waitFor(atomic_int *flag) {
    for (int i = 0; i < 500 && !atomic_load(flag); i++) usleep(10000);
    return atomic_load(flag);
}

int main(int argc, char **argv) {
    int simulate = argc > 1 && strcmp(argv[1], "--simulate-call") == 0;
    int seconds = argc > 1 && !simulate ? atoi(argv[1]) : 10;

    check(AudioSessionInitialize(NULL, NULL, interruptionListener, NULL), "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    check(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category), "setting the category");
    check(AudioSessionSetActive(1), "AudioSessionSetActive");
    printf("playing\n");
    fflush(stdout);

    if (!simulate) {
        sleep((unsigned)seconds);
        return 0;
    }
    check(AudioSessionSimulateSystemEvent("call begin"), "simulating a call");
    if (!waitFor(&began)) { fprintf(stderr, "player: no interruption began\n"); return 1; }
    check(AudioSessionSimulateSystemEvent("call end"), "ending the call");
    if (!waitFor(&ended)) { fprintf(stderr, "player: no interruption ended\n"); return 1; }
    return 0;
}
