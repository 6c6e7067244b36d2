/* Audio Session Services written the Apple way: Apple's header names, Mac types, the route as a
 * CFStringRef and route changes read from a CFDictionaryRef with CFSTR keys — unchanged iOS
 * code, apart from the one Linux extension it uses to plug headphones
 * (AudioSessionSimulateSystemEvent). It makes no assumption about what is plugged already (it
 * runs after other programs against a shared daemon). Prints ok/FAIL; exits with failures. */
#include <AudioToolbox/AudioToolbox.h>
#include <string.h>

#include "check.h" /* the C tests' EXPECT and waitFor */

static atomic_int routeChanges;
static SInt32 lastReason = -1;
static char lastOldRoute[64];
static char lastNewOutput[64];
static UInt32 lastDataSize;

/* Apple's classic route-change listener. */
static void audioRouteChangeListener(void *inClientData, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData) {
    (void)inClientData;
    if (inID != kAudioSessionProperty_AudioRouteChange) return;
    CFDictionaryRef routeChangeDictionary = (CFDictionaryRef)inData;
    CFNumberRef routeChangeReasonRef =
        (CFNumberRef)CFDictionaryGetValue(routeChangeDictionary, CFSTR(kAudioSession_AudioRouteChangeKey_Reason));
    SInt32 routeChangeReason = -1;
    CFNumberGetValue(routeChangeReasonRef, kCFNumberSInt32Type, &routeChangeReason);
    CFStringRef oldRoute =
        (CFStringRef)CFDictionaryGetValue(routeChangeDictionary, CFSTR(kAudioSession_AudioRouteChangeKey_OldRoute));
    CFStringGetCString(oldRoute, lastOldRoute, sizeof lastOldRoute, kCFStringEncodingUTF8);
    CFDictionaryRef current = (CFDictionaryRef)CFDictionaryGetValue(
        routeChangeDictionary, CFSTR(kAudioSession_AudioRouteChangeKey_CurrentRouteDescription));
    CFArrayRef outputs = (CFArrayRef)CFDictionaryGetValue(current, CFSTR(kAudioSession_AudioRouteKey_Outputs));
    if (outputs != NULL && CFArrayGetCount(outputs) > 0) {
        CFDictionaryRef output = (CFDictionaryRef)CFArrayGetValueAtIndex(outputs, 0);
        CFStringRef type = (CFStringRef)CFDictionaryGetValue(output, CFSTR(kAudioSession_AudioRouteKey_Type));
        CFStringGetCString(type, lastNewOutput, sizeof lastNewOutput, kCFStringEncodingUTF8);
    }
    lastReason = routeChangeReason;
    lastDataSize = inDataSize;
    atomic_fetch_add(&routeChanges, 1);
}

static void interruptionListener(void *inClientData, UInt32 inInterruptionState) {
    (void)inClientData;
    (void)inInterruptionState;
}

int main(void) {
    OSStatus status = AudioSessionInitialize(NULL, NULL, interruptionListener, NULL);
    EXPECT(status == noErr, "AudioSessionInitialize");
    UInt32 sessionCategory = kAudioSessionCategory_MediaPlayback;
    status = AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof(sessionCategory), &sessionCategory);
    EXPECT(status == noErr, "category MediaPlayback");
    EXPECT(AudioSessionSetActive(true) == noErr, "AudioSessionSetActive(true)");

    /* 'rout' is a CFStringRef the caller releases. */
    CFStringRef route = NULL;
    UInt32 propertySize = sizeof(CFStringRef);
    status = AudioSessionGetProperty(kAudioSessionProperty_AudioRoute, &propertySize, &route);
    EXPECT(status == noErr && route != NULL, "kAudioSessionProperty_AudioRoute reads a CFStringRef");
    char routeBefore[64] = "";
    EXPECT(route != NULL && CFStringGetCString(route, routeBefore, sizeof routeBefore, kCFStringEncodingUTF8) && routeBefore[0] != 0,
           "the route has a name");
    UInt16 tooSmall = 0;
    propertySize = sizeof(tooSmall);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_AudioRoute, &propertySize, &tooSmall) == kAudioSessionBadPropertySizeError,
           "a size that is not a CFStringRef's is !siz");

    /* 'crar' is a CFDictionaryRef: arrays of port dictionaries. */
    CFDictionaryRef description = NULL;
    propertySize = sizeof(description);
    status = AudioSessionGetProperty(kAudioSessionProperty_AudioRouteDescription, &propertySize, &description);
    EXPECT(status == noErr && description != NULL, "kAudioSessionProperty_AudioRouteDescription reads a CFDictionaryRef");
    if (description != NULL) {
        CFArrayRef outputs = (CFArrayRef)CFDictionaryGetValue(description, CFSTR(kAudioSession_AudioRouteKey_Outputs));
        CFArrayRef inputs = (CFArrayRef)CFDictionaryGetValue(description, CFSTR(kAudioSession_AudioRouteKey_Inputs));
        EXPECT(outputs != NULL && CFArrayGetCount(outputs) == 1 && inputs != NULL && CFArrayGetCount(inputs) == 0,
               "one output, no input (playback)");
        CFDictionaryRef output = outputs ? (CFDictionaryRef)CFArrayGetValueAtIndex(outputs, 0) : NULL;
        CFStringRef type = output ? (CFStringRef)CFDictionaryGetValue(output, CFSTR(kAudioSession_AudioRouteKey_Type)) : NULL;
        EXPECT(type != NULL && CFStringGetLength(type) > 0, "its output has a port type (a CFString)");
        CFRelease(description);
    }
    if (route != NULL) CFRelease(route);

    /* Mac types and the other properties, as in the C form. */
    Float64 sampleRate = 0;
    propertySize = sizeof(sampleRate);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &propertySize, &sampleRate) == noErr && sampleRate > 0,
           "Float64 sample rate");
    UInt32 otherAudioIsPlaying = 99;
    propertySize = sizeof(otherAudioIsPlaying);
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_OtherAudioIsPlaying, &propertySize, &otherAudioIsPlaying) == noErr
               && otherAudioIsPlaying == 0,
           "UInt32 other audio is playing");
    SInt64 wide = (SInt64)sampleRate;
    Boolean yes = TRUE;
    EXPECT(wide > 0 && yes == 1 && sizeof(Boolean) == 1 && sizeof(UInt16) == 2 && sizeof(OSType) == 4, "MacTypes");

    /* A route change arrives as Apple's dictionary. */
    EXPECT(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioRouteChange, audioRouteChangeListener, NULL) == noErr,
           "add the route-change listener");
    EXPECT(AudioSessionSimulateSystemEvent("plug headphones uid=apple-form-headphones") == noErr, "plug headphones");
    EXPECT(waitFor(&routeChanges, 1), "the listener is called");
    EXPECT(lastReason == kAudioSessionRouteChangeReason_NewDeviceAvailable, "reason: new device available");
    EXPECT(strcmp(lastOldRoute, routeBefore) == 0, "old route: the route read before");
    EXPECT(strcmp(lastNewOutput, "Headphones") == 0, "the current route's output: Headphones");
    EXPECT(lastDataSize == sizeof(CFDictionaryRef), "inDataSize is a CFDictionaryRef's");
    description = NULL;
    propertySize = sizeof(description);
    if (AudioSessionGetProperty(kAudioSessionProperty_AudioRouteDescription, &propertySize, &description) == noErr && description) {
        CFArrayRef outputs = (CFArrayRef)CFDictionaryGetValue(description, CFSTR(kAudioSession_AudioRouteKey_Outputs));
        CFDictionaryRef output = outputs && CFArrayGetCount(outputs) > 0 ? (CFDictionaryRef)CFArrayGetValueAtIndex(outputs, 0) : NULL;
        CFStringRef uid = output ? (CFStringRef)CFDictionaryGetValue(output, CFSTR(kAudioSession_AudioRouteKey_UID)) : NULL;
        CFStringRef type = output ? (CFStringRef)CFDictionaryGetValue(output, CFSTR(kAudioSession_AudioRouteKey_Type)) : NULL;
        EXPECT(type && CFEqual(type, kAudioSessionOutputRoute_Headphones) && uid && CFEqual(uid, CFSTR("apple-form-headphones")),
               "the route description now names the plugged headphones");
        CFRelease(description);
    } else {
        EXPECT(0, "the route description after the plug");
    }

    /* Removed, it is called no more; the C form's listeners are untouched by the mapping. */
    EXPECT(AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_AudioRouteChange, audioRouteChangeListener, NULL) == noErr,
           "remove the listener");
    EXPECT(AudioSessionSimulateSystemEvent("unplug apple-form-headphones") == noErr, "unplug headphones");
    usleep(300000);
    EXPECT(atomic_load(&routeChanges) == 1, "a removed listener hears nothing");

    printf("%s: %d failure(s)\n", failures ? "FAILED" : "all Apple-form checks passed", failures);
    return failures;
}
