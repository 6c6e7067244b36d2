/* Every property of SPEC §14 through the C API, read, written or listened to as its direction
 * allows, on a simulated iPhone (embedded or a daemon's). Prints ok/FAIL; exits with failures. */
#include "check.h"
#include <math.h>
#include <string.h>

static atomic_int routeChanges, volumeChanges, diedCalls, gainAvailableChanges, endCallbacks;
static Float32 lastVolume;
static UInt32 lastDied = 99, lastGainAvailable = 99, typeInEndCallback;
/* Every route change heard, in order (routeChanges counts them): a check waits for the change it
 * is about — its reason and old route — never for a count, since a change an earlier step caused
 * may still be on its way when a later step begins. */
static struct {
    UInt32 reason;
    char oldRoute[64];
} heardChanges[256];

/* Waits up to five seconds for a route change heard after the first `from` with this reason and
 * (unless NULL) this old route. */
static int waitForRouteChange(int from, UInt32 reason, const char *oldRoute) {
    for (int i = 0; i < 500; i++) {
        int count = atomic_load(&routeChanges);
        for (int n = from; n < count && n < 256; n++) {
            if (heardChanges[n].reason == reason && (!oldRoute || strcmp(heardChanges[n].oldRoute, oldRoute) == 0)) return 1;
        }
        usleep(10000);
    }
    int count = atomic_load(&routeChanges);
    for (int n = from; n < count && n < 256; n++)
        printf("   heard route change %d: reason %u, old route %s\n", n, (unsigned)heardChanges[n].reason, heardChanges[n].oldRoute);
    return 0;
}

static void interruption(void *data, UInt32 state) {
    (void)data;
    if (state != kAudioSessionEndInterruption) return;
    OSStatus status;
    typeInEndCallback = getUInt32(kAudioSessionProperty_InterruptionType, &status);
    if (status != kAudioSessionNoError) typeInEndCallback = 0;
    atomic_fetch_add(&endCallbacks, 1);
}

static void listener(void *data, AudioSessionPropertyID id, UInt32 size, const void *value) {
    (void)data;
    switch (id) {
    case kAudioSessionProperty_AudioRouteChange: {
        const AudioSessionRouteChange *change = value;
        if (size != sizeof(*change)) return;
        int n = atomic_load(&routeChanges);
        if (n < 256) {
            heardChanges[n].reason = change->reason;
            snprintf(heardChanges[n].oldRoute, sizeof(heardChanges[n].oldRoute), "%s", change->oldRoute);
        }
        atomic_fetch_add(&routeChanges, 1); /* after the entry: a reader sees it whole */
        break;
    }
    case kAudioSessionProperty_CurrentHardwareOutputVolume:
        lastVolume = *(const Float32 *)value;
        atomic_fetch_add(&volumeChanges, 1);
        break;
    case kAudioSessionProperty_ServerDied:
        lastDied = *(const UInt32 *)value;
        atomic_fetch_add(&diedCalls, 1);
        break;
    case kAudioSessionProperty_InputGainAvailable:
        lastGainAvailable = *(const UInt32 *)value;
        atomic_fetch_add(&gainAvailableChanges, 1);
        break;
    }
}

static const char *route(void) {
    const char *name = NULL;
    UInt32 size = sizeof(name);
    return AudioSessionGetProperty(kAudioSessionProperty_AudioRoute, &size, &name) == kAudioSessionNoError ? name : "(error)";
}

int main(void) {
    OSStatus status;
    UInt32 size;
    EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, interruption, NULL), kAudioSessionNoError, "initialize");
    UInt32 listened[] = {kAudioSessionProperty_AudioRouteChange, kAudioSessionProperty_CurrentHardwareOutputVolume,
                         kAudioSessionProperty_ServerDied, kAudioSessionProperty_AudioInputAvailable,
                         kAudioSessionProperty_InputGainAvailable};
    for (unsigned i = 0; i < sizeof(listened) / sizeof(listened[0]); i++)
        EXPECT_STATUS(AudioSessionAddPropertyListener(listened[i], listener, NULL), kAudioSessionNoError, "add a listener");

    /* acat, mode */
    EXPECT(getUInt32(kAudioSessionProperty_AudioCategory, &status) == kAudioSessionCategory_SoloAmbientSound && !status,
           "acat reads solo before any is set (C8)");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_PlayAndRecord), 0, "acat set to plar");
    EXPECT(getUInt32(kAudioSessionProperty_AudioCategory, &status) == kAudioSessionCategory_PlayAndRecord, "acat reads plar");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_Mode, kAudioSessionMode_VoiceChat), 0, "mode set to vcct");
    EXPECT(getUInt32(kAudioSessionProperty_Mode, &status) == kAudioSessionMode_VoiceChat, "mode reads vcct");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_Mode, kAudioSessionMode_Default), 0, "mode back to dflt");

    /* hwsr, iobd (preferences), then the current hardware values once active */
    Float64 rate = 44100;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, sizeof(rate), &rate), 0, "hwsr set to 44100");
    Float64 readRate = 0;
    size = sizeof(readRate);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, &size, &readRate) == 0 && readRate == 44100,
           "hwsr reads 44100");
    Float32 duration = 0.005f;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, sizeof(duration), &duration), 0,
                  "iobd set to 5 ms");
    EXPECT(fabsf(getFloat32(kAudioSessionProperty_PreferredHardwareIOBufferDuration, &status) - 0.005f) < 1e-6f, "iobd reads 5 ms");
    EXPECT_STATUS(AudioSessionSetActive(1), 0, "activate");
    size = sizeof(readRate);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &readRate) == 0 && readRate == 44100,
           "chsr is the preferred 44100 (HW1)");
    /* HW2: 0.005 s × 44100 = 220.5 frames → clamped to 256 → 256/44100 s */
    EXPECT(fabsf(getFloat32(kAudioSessionProperty_CurrentHardwareIOBufferDuration, &status) - 256.0f / 44100) < 1e-6f,
           "chbd is 256 frames at 44100 (HW2)");
    EXPECT(getUInt32(kAudioSessionProperty_CurrentHardwareInputNumberChannels, &status) == 1 && !status, "chic is 1");
    EXPECT(getUInt32(kAudioSessionProperty_CurrentHardwareOutputNumberChannels, &status) == 1 && !status, "choc is 1 (receiver)");
    EXPECT(fabsf(getFloat32(kAudioSessionProperty_CurrentHardwareInputLatency, &status) - 0.0015f) < 1e-6f, "cilt is 1.5 ms");
    EXPECT(fabsf(getFloat32(kAudioSessionProperty_CurrentHardwareOutputLatency, &status) - 0.0008f) < 1e-6f, "colt is 0.8 ms");
    EXPECT(getUInt32(kAudioSessionProperty_OtherAudioIsPlaying, &status) == 0 && !status, "othr is 0");
    EXPECT(getUInt32(kAudioSessionProperty_AudioInputAvailable, &status) == 1 && !status, "aiav is 1");

    /* rout, crar, ovrd */
    EXPECT(strcmp(route(), "ReceiverAndMicrophone") == 0, "rout reads ReceiverAndMicrophone");
    const AudioSessionRouteDescription *description = NULL;
    size = sizeof(description);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_AudioRouteDescription, &size, &description) == 0 && description &&
               description->outputCount == 1 && strcmp(description->outputs[0].type, kAudioSessionOutputRoute_BuiltInReceiver) == 0 &&
               description->inputCount == 1 && strcmp(description->inputs[0].type, kAudioSessionInputRoute_BuiltInMic) == 0 &&
               strcmp(description->inputs[0].uid, "built-in-mic") == 0,
           "crar describes Receiver out and MicrophoneBuiltIn in");
    int before = atomic_load(&routeChanges);
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideAudioRoute, kAudioSessionOverrideAudioRoute_Speaker), 0, "ovrd set to spkr");
    EXPECT(strcmp(route(), "SpeakerAndMicrophone") == 0, "rout reads SpeakerAndMicrophone after the override");
    EXPECT(waitForRouteChange(before, kAudioSessionRouteChangeReason_Override, "ReceiverAndMicrophone"),
           "roch: reason override, old route ReceiverAndMicrophone");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideAudioRoute, kAudioSessionOverrideAudioRoute_None), 0, "ovrd set to none");

    /* the override properties */
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker, 1), 0, "cspk set");
    EXPECT(getUInt32(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker, &status) == 1, "cspk reads 1");
    EXPECT(strcmp(route(), "SpeakerAndMicrophone") == 0, "cspk routes to the speaker");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker, 0), 0, "cspk cleared by writing 0");
    EXPECT(strcmp(route(), "ReceiverAndMicrophone") == 0, "back to the receiver");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideCategoryMixWithOthers, 1), 0, "cmix set");
    EXPECT(getUInt32(kAudioSessionProperty_OverrideCategoryMixWithOthers, &status) == 1, "cmix reads 1");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OtherMixableAudioShouldDuck, 1), 0, "duck set");
    EXPECT(getUInt32(kAudioSessionProperty_OtherMixableAudioShouldDuck, &status) == 1, "duck reads 1");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideCategoryEnableBluetoothInput, 1), 0, "cblu set");
    EXPECT(getUInt32(kAudioSessionProperty_OverrideCategoryEnableBluetoothInput, &status) == 1, "cblu reads 1");

    /* igav, igsc, and an igav listener: a Bluetooth HFP input (allowed by cblu) has no settable gain */
    EXPECT(getUInt32(kAudioSessionProperty_InputGainAvailable, &status) == 1 && !status, "igav is 1 on the built-in mic");
    Float32 gain = 0.25f;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_InputGainScalar, sizeof(gain), &gain), 0, "igsc set to 0.25");
    EXPECT(getFloat32(kAudioSessionProperty_InputGainScalar, &status) == 0.25f, "igsc reads 0.25");
    int gainChanges = atomic_load(&gainAvailableChanges);
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("plug bt-hfp uid=c-hfp"), 0, "plug a Bluetooth HFP headset");
    EXPECT(waitFor(&gainAvailableChanges, gainChanges + 1) && lastGainAvailable == 0, "igav listener: 0 on the HFP input");
    EXPECT(getUInt32(kAudioSessionProperty_InputGainAvailable, &status) == 0, "igav reads 0");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("unplug c-hfp"), 0, "unplug it");
    EXPECT(waitFor(&gainAvailableChanges, gainChanges + 2) && lastGainAvailable == 1, "igav listener: 1 again");

    /* a category change clears the overrides */
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_MediaPlayback), 0, "acat set to medi");
    EXPECT(getUInt32(kAudioSessionProperty_OverrideCategoryMixWithOthers, &status) == 0 &&
               getUInt32(kAudioSessionProperty_OtherMixableAudioShouldDuck, &status) == 0 &&
               getUInt32(kAudioSessionProperty_OverrideCategoryEnableBluetoothInput, &status) == 0,
           "a category change cleared cmix, duck and cblu");

    /* chov and its listener */
    EXPECT(getFloat32(kAudioSessionProperty_CurrentHardwareOutputVolume, &status) == 1.0f, "chov reads 1");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("volume 0.5"), 0, "the volume goes to 0.5");
    EXPECT(waitFor(&volumeChanges, 1) && lastVolume == 0.5f, "chov listener: 0.5");
    EXPECT(getFloat32(kAudioSessionProperty_CurrentHardwareOutputVolume, &status) == 0.5f, "chov reads 0.5");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("volume 1"), 0, "the volume back to 1");

    /* roch on a headphone plug; type inside the end-interruption callback */
    before = atomic_load(&routeChanges);
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("plug headphones uid=c-phones"), 0, "plug headphones");
    EXPECT(waitForRouteChange(before, kAudioSessionRouteChangeReason_NewDeviceAvailable, "Speaker"),
           "roch: new device available, old route Speaker");
    EXPECT(strcmp(route(), "Headphone") == 0, "rout reads Headphone");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("unplug c-phones"), 0, "unplug headphones");
    EXPECT_STATUS(AudioSessionSetActive(1), 0, "activate medi");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("call begin"), 0, "a call begins");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("call end"), 0, "the call ends");
    EXPECT(waitFor(&endCallbacks, 1) && typeInEndCallback == kAudioSessionInterruptionType_ShouldResume,
           "type reads irsm inside the end callback");

    /* died: media services lost (1) and back (0); the C session stays initialized (MS2) */
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("media-services reset"), 0, "media services reset");
    EXPECT(waitFor(&diedCalls, 2) && lastDied == 0, "died listener: 1 when lost, then 0 when reset");
    EXPECT(getUInt32(kAudioSessionProperty_AudioCategory, &status) == kAudioSessionCategory_SoloAmbientSound && !status,
           "after the reset the session is initialized and back to solo (MS2)");

    /* removing a listener */
    int volumeBefore = atomic_load(&volumeChanges);
    EXPECT_STATUS(AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_CurrentHardwareOutputVolume, listener, NULL), 0,
                  "remove the chov listener");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("volume 0.7"), 0, "the volume goes to 0.7");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("volume 1"), 0, "and back");
    /* Events arrive in order: once the plug's route change is here, any volume call would have been. */
    before = atomic_load(&routeChanges);
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("plug headphones uid=c-phones-2"), 0, "plug headphones (a barrier)");
    EXPECT(waitForRouteChange(before, kAudioSessionRouteChangeReason_NewDeviceAvailable, NULL), "its route change arrived");
    EXPECT(atomic_load(&volumeChanges) == volumeBefore, "a removed listener is not called");

    printf(failures ? "%d C API property checks failed\n" : "all C API property checks passed\n", failures);
    return failures;
}
