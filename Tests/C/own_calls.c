/* N3 in the C API: the route change an app's own call causes reaches a listener added right
 * after the call returns (as real code adds it: baresip's missed reason 3 before), embedded or
 * through a daemon. Twenty times: set mediaPlayback and activate; set playAndRecord (a route change
 * to itself, reason 3, category change); only then add a 'roch' listener. Prints ok/FAIL; exits
 * with failures. */
#include "check.h"

static atomic_int categoryChanges;

static void listener(void *data, AudioSessionPropertyID id, UInt32 size, const void *value) {
    (void)data;
    if (id != kAudioSessionProperty_AudioRouteChange || size != sizeof(AudioSessionRouteChange)) return;
    const AudioSessionRouteChange *change = value;
    if (change->reason == kAudioSessionRouteChangeReason_CategoryChange) atomic_fetch_add(&categoryChanges, 1);
}

int main(void) {
    EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, NULL, NULL), 0, "initialized");
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
    printf(failures ? "%d C API own-call checks failed\n" : "all C API own-call checks passed\n", failures);
    return failures;
}
