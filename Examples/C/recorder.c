/*
 * A recorder written against Audio Session Services: it records with the RecordAudio category
 * and listens to kAudioSessionProperty_AudioRouteChange; when the headset is unplugged it
 * prints the reason and the old route, as a recorder that stops on unplug would.
 *
 *   recorder [SECONDS]          record (pretend to) for SECONDS (default 10), printing route changes
 *   recorder --simulate-unplug  plug a wired headset, unplug it, then exit
 *
 * Build: cc recorder.c $(pkg-config --cflags --libs AudioSessionServices)   (README: Using from C)
 */
#include <AudioSessionServices.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int changes, unplugged;

static void check(OSStatus status, const char *what) {
    if (status != kAudioSessionNoError) {
        fprintf(stderr, "recorder: %s failed with %d\n", what, (int)status);
        exit(1);
    }
}

static const char *reasonName(UInt32 reason) {
    switch (reason) {
    case kAudioSessionRouteChangeReason_NewDeviceAvailable: return "new device available";
    case kAudioSessionRouteChangeReason_OldDeviceUnavailable: return "old device unavailable";
    case kAudioSessionRouteChangeReason_CategoryChange: return "category change";
    case kAudioSessionRouteChangeReason_Override: return "override";
    case kAudioSessionRouteChangeReason_WakeFromSleep: return "wake from sleep";
    case kAudioSessionRouteChangeReason_NoSuitableRouteForCategory: return "no suitable route for category";
    case kAudioSessionRouteChangeReason_RouteConfigurationChange: return "route configuration change";
    default: return "unknown";
    }
}

/* inData is a const AudioSessionRouteChange *, valid during the call. */
static void routeChanged(void *clientData, AudioSessionPropertyID id, UInt32 size, const void *data) {
    (void)clientData;
    if (id != kAudioSessionProperty_AudioRouteChange || size != sizeof(AudioSessionRouteChange)) return;
    const AudioSessionRouteChange *change = data;
    const AudioSessionRouteDescription *now = change->currentRoute;
    printf("route change: reason %u (%s), old route %s, now %u input(s)%s%s\n", (unsigned)change->reason,
           reasonName(change->reason), change->oldRoute, (unsigned)now->inputCount,
           now->inputCount ? ": " : "", now->inputCount ? now->inputs[0].type : "");
    if (change->reason == kAudioSessionRouteChangeReason_OldDeviceUnavailable) {
        printf("the headset was unplugged while recording: stopping the recording\n");
        atomic_store(&unplugged, 1);
    }
    atomic_fetch_add(&changes, 1);
    fflush(stdout);
}

static int waitFor(atomic_int *flag, int value) {
    for (int i = 0; i < 500 && atomic_load(flag) < value; i++) usleep(10000);
    return atomic_load(flag) >= value;
}

int main(int argc, char **argv) {
    int simulate = argc > 1 && strcmp(argv[1], "--simulate-unplug") == 0;
    int seconds = argc > 1 && !simulate ? atoi(argv[1]) : 10;

    check(AudioSessionInitialize(NULL, NULL, NULL, NULL), "AudioSessionInitialize");
    check(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, routeChanged, NULL),
          "adding the route-change listener");
    UInt32 category = kAudioSessionCategory_RecordAudio;
    check(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(category), &category), "setting the category");
    check(AudioSessionSetActive(1), "AudioSessionSetActive");
    printf("recording\n");
    fflush(stdout);

    if (!simulate) {
        sleep((unsigned)seconds);
        return 0;
    }
    int before = atomic_load(&changes);
    check(AudioSessionSimulateSystemEvent("plug headset uid=c-headset"), "plugging a headset");
    if (!waitFor(&changes, before + 1)) { fprintf(stderr, "recorder: no route change on plug\n"); return 1; }
    check(AudioSessionSimulateSystemEvent("unplug c-headset"), "unplugging the headset");
    if (!waitFor(&unplugged, 1)) { fprintf(stderr, "recorder: no route change on unplug\n"); return 1; }
    return 0;
}
