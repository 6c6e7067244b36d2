/* Every error path of the C API (SPEC §14, issue 5): !ini, init, pty?, !siz, -50 and the
 * engine's codes for refused operations. Prints ok/FAIL lines; exits with the failure count. */
#include "check.h"
#include <string.h>

static atomic_int firstListenerCalls, secondListenerCalls;

static void firstListener(void *data, UInt32 state) {
    (void)data;
    if (state == kAudioSessionBeginInterruption) atomic_fetch_add(&firstListenerCalls, 1);
}

static void secondListener(void *data, UInt32 state) {
    (void)data;
    (void)state;
    atomic_fetch_add(&secondListenerCalls, 1);
}

static void anyListener(void *data, AudioSessionPropertyID id, UInt32 size, const void *value) {
    (void)data, (void)id, (void)size, (void)value;
}

int main(void) {
    UInt32 value = 0, size = sizeof(value);
    OSStatus status;

    /* !ini: every call before AudioSessionInitialize. */
    EXPECT_STATUS(AudioSessionSetActive(1), kAudioSessionNotInitialized, "SetActive before initialize is !ini");
    EXPECT_STATUS(AudioSessionSetActiveWithFlags(0, 1), kAudioSessionNotInitialized, "SetActiveWithFlags before initialize is !ini");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &size, &value), kAudioSessionNotInitialized,
                  "GetProperty before initialize is !ini");
    EXPECT_STATUS(AudioSessionGetPropertySize(kAudioSessionProperty_AudioCategory, &size), kAudioSessionNotInitialized,
                  "GetPropertySize before initialize is !ini");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_MediaPlayback), kAudioSessionNotInitialized,
                  "SetProperty before initialize is !ini");
    EXPECT_STATUS(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, anyListener, NULL),
                  kAudioSessionNotInitialized, "AddPropertyListener before initialize is !ini");
    EXPECT_STATUS(AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_AudioRouteChange, anyListener, NULL),
                  kAudioSessionNotInitialized, "RemovePropertyListenerWithUserData before initialize is !ini");

    /* init: a second initialize is refused and the first listener stays. */
    EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, firstListener, NULL), kAudioSessionNoError, "initialize");
    EXPECT_STATUS(AudioSessionInitialize(NULL, NULL, secondListener, NULL), kAudioSessionAlreadyInitialized,
                  "a second initialize is init (1768843636)");

    /* pty?: unknown properties and the wrong direction. */
    EXPECT_STATUS(AudioSessionGetProperty(0x7a7a7a7a, &size, &value), kAudioSessionUnsupportedPropertyError, "an unknown property is pty?");
    EXPECT_STATUS(AudioSessionGetPropertySize(0x7a7a7a7a, &size), kAudioSessionUnsupportedPropertyError, "the size of an unknown property is pty?");
    UInt32 notOffered[] = {kAudioSessionProperty_InputSources, kAudioSessionProperty_InputSource,
                           kAudioSessionProperty_OutputDestinations, kAudioSessionProperty_OutputDestination};
    for (unsigned i = 0; i < sizeof(notOffered) / sizeof(notOffered[0]); i++)
        EXPECT_STATUS(AudioSessionGetPropertySize(notOffered[i], &size), kAudioSessionUnsupportedPropertyError,
                      "Apple's input-source and output-destination properties are declared and not offered (pty?)");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_OverrideAudioRoute, &size, &value), kAudioSessionUnsupportedPropertyError,
                  "reading the write-only ovrd is pty?");
    EXPECT_STATUS(AudioSessionGetPropertySize(kAudioSessionProperty_OverrideAudioRoute, &size), kAudioSessionUnsupportedPropertyError,
                  "the size of the write-only ovrd is pty?");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_AudioRouteChange, &size, &value), kAudioSessionUnsupportedPropertyError,
                  "reading the listener-only roch is pty?");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_ServerDied, &size, &value), kAudioSessionUnsupportedPropertyError,
                  "reading the listener-only died is pty?");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_CurrentHardwareInputNumberChannels, 2), kAudioSessionUnsupportedPropertyError,
                  "writing the read-only chic is pty?");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioRouteChange, 1), kAudioSessionUnsupportedPropertyError,
                  "writing roch is pty?");
    EXPECT_STATUS(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioCategory, anyListener, NULL),
                  kAudioSessionUnsupportedPropertyError, "listening to acat (not listenable) is pty?");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_InterruptionType, &size, &value), kAudioSessionUnsupportedPropertyError,
                  "type outside an end-interruption callback is pty?");

    /* !siz: a size that does not match the property's. */
    UInt32 wrongSize = 8;
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &wrongSize, &value), kAudioSessionBadPropertySizeError,
                  "reading acat with size 8 is !siz");
    Float64 rate = 48000;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, 4, &rate), kAudioSessionBadPropertySizeError,
                  "writing hwsr with size 4 is !siz");
    const char *route = NULL;
    UInt32 shortSize = 4;
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_AudioRoute, &shortSize, &route), kAudioSessionBadPropertySizeError,
                  "reading rout into 4 bytes is !siz");

    /* -50: values no setting has, and NULL pointers. */
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioCategory, 0x78787878), kAudioSessionBadParameterError, "an unknown category code is -50");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_Mode, 0x78787878), kAudioSessionBadParameterError, "an unknown mode code is -50");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideAudioRoute, 7), kAudioSessionBadParameterError, "an unknown override is -50");
    rate = 1000;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, sizeof(rate), &rate),
                  kAudioSessionBadParameterError, "a sample rate below 8000 is -50 (HW3)");
    Float32 gain = 2;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_InputGainScalar, sizeof(gain), &gain), kAudioSessionBadParameterError,
                  "an input gain above 1 is -50 (HW6)");
    EXPECT_STATUS(AudioSessionSetActiveWithFlags(0, 2), kAudioSessionBadParameterError, "an unknown set-active flag is -50");
    EXPECT_STATUS(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, NULL, &value), kAudioSessionBadParameterError,
                  "a NULL size is -50");
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, 4, NULL), kAudioSessionBadParameterError, "NULL data is -50");
    EXPECT_STATUS(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, NULL, NULL), kAudioSessionBadParameterError,
                  "a NULL listener is -50");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_AudioCategory, kAudioSessionCategory_MediaPlayback), kAudioSessionNoError, "category medi");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker, 1), kAudioSessionBadParameterError,
                  "cspk in MediaPlayback is -50 (O1)");
    EXPECT_STATUS(setUInt32(kAudioSessionProperty_Mode, kAudioSessionMode_VoiceChat), kAudioSessionBadParameterError,
                  "voice chat mode in MediaPlayback is -50 (M1)");
    getUInt32(kAudioSessionProperty_Mode, &status);
    EXPECT(status == kAudioSessionNoError && getUInt32(kAudioSessionProperty_Mode, &status) == kAudioSessionMode_Default,
           "a refused mode changed nothing (A7)");

    /* The engine's codes for refused operations. */
    EXPECT_STATUS(getUInt32(kAudioSessionProperty_CurrentHardwareInputNumberChannels, &status) * 0 + status,
                  kAudioSessionIncompatibleCategory, "input channels in MediaPlayback is !cat (HW5)");
    gain = 0.5f;
    EXPECT_STATUS(AudioSessionSetProperty(kAudioSessionProperty_InputGainScalar, sizeof(gain), &gain), kAudioSessionResourceNotAvailable,
                  "input gain with no input is !res (HW6)");
    EXPECT_STATUS(AudioSessionSetActive(1), kAudioSessionNoError, "activate");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("call begin"), kAudioSessionNoError, "a call begins");
    EXPECT(waitFor(&firstListenerCalls, 1), "the first interruption listener hears the call");
    EXPECT(atomic_load(&secondListenerCalls) == 0, "the second initialize's listener is never called");
    EXPECT_STATUS(AudioSessionSetActive(1), kAudioSessionInsufficientPriority, "activating during a call is !pri (A3)");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("call end"), kAudioSessionNoError, "the call ends");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("fly away"), kAudioSessionBadParameterError, "a simulated event that is not one is -50");
    EXPECT_STATUS(AudioSessionSimulateSystemEvent("unplug no-such-port"), kAudioSessionBadParameterError,
                  "unplugging a port that is not there is the engine's -50");

    printf(failures ? "%d C API error checks failed\n" : "all C API error checks passed\n", failures);
    return failures;
}
