/*
 * Apple's CoreFoundation form of Audio Session Services (AudioToolbox/AudioSession.h): the C
 * form's values (libAudioSessionServices) turned into CFString, CFNumber, CFArray and
 * CFDictionary objects of the Swift toolchain's CoreFoundation. libAudioToolbox.so; built by
 * scripts/build-apple-form.
 */
#define AUDIOSESSION_CF_IMPLEMENTATION 1
#include <AudioToolbox/AudioSession.h>
#include <AudioToolbox/AudioServices.h>
#include <AudioUnit/AudioUnit.h>

#include <pthread.h>
#include <stdlib.h>

static CFStringRef makeString(const char *text) {
    return CFStringCreateWithCString(kCFAllocatorDefault, text ? text : "", kCFStringEncodingUTF8);
}

/* One port: its type (Apple's key), UID and name (ours). */
static CFDictionaryRef makePort(const AudioSessionPortDescription *port) {
    const void *keys[3] = {
        CFSTR(kAudioSession_AudioRouteKey_Type), CFSTR(kAudioSession_AudioRouteKey_UID),
        CFSTR(kAudioSession_AudioRouteKey_Name)};
    const void *values[3] = {makeString(port->type), makeString(port->uid), makeString(port->name)};
    CFDictionaryRef dictionary = CFDictionaryCreate(
        kCFAllocatorDefault, keys, values, 3, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    for (int index = 0; index < 3; index++) CFRelease(values[index]);
    return dictionary;
}

static CFArrayRef makePorts(const AudioSessionPortDescription *ports, UInt32 count) {
    CFMutableArrayRef array = CFArrayCreateMutable(kCFAllocatorDefault, count, &kCFTypeArrayCallBacks);
    for (UInt32 index = 0; index < count; index++) {
        CFDictionaryRef port = makePort(&ports[index]);
        CFArrayAppendValue(array, port);
        CFRelease(port);
    }
    return array;
}

/* A route as Apple's iOS 5 route description: Inputs and Outputs, arrays of ports. */
static CFDictionaryRef makeRoute(const AudioSessionRouteDescription *route) {
    const void *keys[2] = {CFSTR(kAudioSession_AudioRouteKey_Inputs), CFSTR(kAudioSession_AudioRouteKey_Outputs)};
    const void *values[2] = {
        makePorts(route->inputs, route->inputCount), makePorts(route->outputs, route->outputCount)};
    CFDictionaryRef dictionary = CFDictionaryCreate(
        kCFAllocatorDefault, keys, values, 2, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    CFRelease(values[0]);
    CFRelease(values[1]);
    return dictionary;
}

/* Apple's route-change dictionary: the reason, the old route's name and both descriptions. */
static CFDictionaryRef makeRouteChange(const AudioSessionRouteChange *change) {
    SInt32 reason = (SInt32)change->reason;
    const void *keys[4] = {
        CFSTR(kAudioSession_AudioRouteChangeKey_Reason), CFSTR(kAudioSession_AudioRouteChangeKey_OldRoute),
        CFSTR(kAudioSession_AudioRouteChangeKey_PreviousRouteDescription),
        CFSTR(kAudioSession_AudioRouteChangeKey_CurrentRouteDescription)};
    const void *values[4] = {
        CFNumberCreate(kCFAllocatorDefault, kCFNumberSInt32Type, &reason), makeString(change->oldRoute),
        makeRoute(change->previousRoute), makeRoute(change->currentRoute)};
    CFDictionaryRef dictionary = CFDictionaryCreate(
        kCFAllocatorDefault, keys, values, 4, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    for (int index = 0; index < 4; index++) CFRelease(values[index]);
    return dictionary;
}

OSStatus AudioSessionGetPropertyCF(AudioSessionPropertyID inID, UInt32 *ioDataSize, void *outData) {
    if (inID != kAudioSessionProperty_AudioRoute && inID != kAudioSessionProperty_AudioRouteDescription) {
        return AudioSessionGetProperty(inID, ioDataSize, outData);
    }
    if (ioDataSize == NULL || outData == NULL) return kAudioSessionBadParameterError;
    if (*ioDataSize != sizeof(CFTypeRef)) return kAudioSessionBadPropertySizeError;
    const void *value = NULL;
    UInt32 size = sizeof value;
    OSStatus status = AudioSessionGetProperty(inID, &size, &value);
    if (status != kAudioSessionNoError) return status;
    *(CFTypeRef *)outData = inID == kAudioSessionProperty_AudioRoute
                                ? (CFTypeRef)makeString((const char *)value)
                                : (CFTypeRef)makeRoute((const AudioSessionRouteDescription *)value);
    return kAudioSessionNoError;
}

/* A 'roch' listener of the CF form: called through a trampoline that builds the dictionary.
 * Entries are never freed (a call may be under way when one is removed); a removed one is
 * reused by the next registration. */
typedef struct Forward {
    AudioSessionPropertyListener procedure;
    void *clientData;
    int registered;
    struct Forward *next;
} Forward;

static Forward *forwards = NULL;
static pthread_mutex_t forwardsLock = PTHREAD_MUTEX_INITIALIZER;

static void forwardRouteChange(void *context, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData) {
    (void)inDataSize;
    Forward *forward = context;
    CFDictionaryRef dictionary = makeRouteChange((const AudioSessionRouteChange *)inData);
    forward->procedure(forward->clientData, inID, sizeof dictionary, dictionary);
    CFRelease(dictionary);
}

OSStatus AudioSessionAddPropertyListenerCF(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData) {
    if (inID != kAudioSessionProperty_AudioRouteChange || inProc == NULL) {
        return AudioSessionAddPropertyListener(inID, inProc, inClientData);
    }
    pthread_mutex_lock(&forwardsLock);
    Forward *forward = forwards;
    while (forward != NULL && forward->registered) forward = forward->next;
    if (forward == NULL) {
        forward = calloc(1, sizeof *forward);
        if (forward == NULL) {
            pthread_mutex_unlock(&forwardsLock);
            return kAudioSessionUnspecifiedError;
        }
        forward->next = forwards;
        forwards = forward;
    }
    forward->procedure = inProc;
    forward->clientData = inClientData;
    forward->registered = 1;
    OSStatus status = AudioSessionAddPropertyListener(inID, forwardRouteChange, forward);
    if (status != kAudioSessionNoError) forward->registered = 0;
    pthread_mutex_unlock(&forwardsLock);
    return status;
}

OSStatus AudioSessionRemovePropertyListenerWithUserDataCF(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData) {
    if (inID != kAudioSessionProperty_AudioRouteChange) {
        return AudioSessionRemovePropertyListenerWithUserData(inID, inProc, inClientData);
    }
    OSStatus status = kAudioSessionNoError;
    pthread_mutex_lock(&forwardsLock);
    for (Forward *forward = forwards; forward != NULL; forward = forward->next) {
        if (!forward->registered || forward->procedure != inProc || forward->clientData != inClientData) continue;
        status = AudioSessionRemovePropertyListenerWithUserData(inID, forwardRouteChange, forward);
        if (status == kAudioSessionNoError) forward->registered = 0;
    }
    pthread_mutex_unlock(&forwardsLock);
    return status;
}

/* SO6: a system sound from a file URL — its path, as the C form takes it. */
OSStatus AudioServicesCreateSystemSoundIDCF(CFURLRef inFileURL, SystemSoundID *outSystemSoundID) {
    char path[4096];
    if (inFileURL == NULL || !CFURLGetFileSystemRepresentation(inFileURL, true, (UInt8 *)path, sizeof(path))) {
        return kAudio_ParamError;
    }
    return AudioServicesCreateSystemSoundID(path, outSystemSoundID);
}

/* SO9: a component's name as a CFString the caller releases. */
OSStatus AudioComponentCopyNameCF(AudioComponent inComponent, CFStringRef *outName) {
    const char *name = NULL;
    if (outName == NULL) return kAudio_ParamError;
    OSStatus status = AudioComponentCopyName(inComponent, &name);
    if (status != 0) return status;
    *outName = makeString(name);
    return 0;
}
