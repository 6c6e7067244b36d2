/*
 * AudioSessionServices.h — Apple's Audio Session Services C API on Linux (SPEC.md §14).
 *
 * This is the project's own C form (SPEC §14): strings are UTF-8 C strings and dictionaries C
 * structs, with no CoreFoundation. Code written for iOS can instead include Apple's headers,
 * <AudioToolbox/AudioToolbox.h> (`pkg-config AudioToolbox`, built by scripts/build-apple-form):
 * the same API in Apple's CoreFoundation form. Here:
 *
 *  - The run-loop arguments of AudioSessionInitialize are accepted and ignored (pass NULL).
 *    Listeners are called one at a time, in the order the arbiter produced the events, on a
 *    serial event queue the library owns — never on the thread that called
 *    AudioSessionInitialize. A listener may call any function of this API.
 *  - kAudioSessionProperty_AudioRoute ('rout') reads a `const char *` (UTF-8), and
 *    kAudioSessionProperty_AudioRouteDescription ('crar') a `const AudioSessionRouteDescription *`,
 *    where Apple's form returns a CFStringRef and a CFDictionaryRef: pass the address of a
 *    pointer and sizeof that pointer. What the library returns stays owned by it and valid
 *    until the same property is read again.
 *  - A kAudioSessionProperty_AudioRouteChange ('roch') listener receives a
 *    `const AudioSessionRouteChange *` (valid during the call) where Apple's form passes a
 *    CFDictionaryRef.
 *
 * Link with the library built by this package: see README.md, "Using from C", or
 *   cc app.c $(pkg-config --cflags --libs AudioSessionServices)
 * with PKG_CONFIG_PATH pointing at the repository's pkgconfig/ directory.
 *
 * Without AUDIOSESSION_SOCKET the session lives in an arbiter inside the process (a simulated
 * iPhone); with AUDIOSESSION_SOCKET=PATH it is a client of the audiosessiond at PATH. The app id
 * is AUDIOSESSION_APP_ID, else the process name.
 */
#ifndef AUDIOSESSIONSERVICES_H
#define AUDIOSESSIONSERVICES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: Types */

typedef int32_t OSStatus;
typedef uint32_t UInt32;
typedef int32_t SInt32;
typedef float Float32;
typedef double Float64;
typedef unsigned char Boolean;

typedef UInt32 AudioSessionPropertyID;

/* Called with kAudioSessionBeginInterruption or kAudioSessionEndInterruption. */
typedef void (*AudioSessionInterruptionListener)(void *inClientData, UInt32 inInterruptionState);

/* Called when a property changes; inData points at the new value (see each property). */
typedef void (*AudioSessionPropertyListener)(
    void *inClientData, AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData);

/* One port of a route. The strings are UTF-8 and owned by the library. */
typedef struct AudioSessionPortDescription {
    const char *type; /* a kAudioSessionInputRoute_… / kAudioSessionOutputRoute_… value */
    const char *uid;
    const char *name;
} AudioSessionPortDescription;

/* A route ('crar'; and both routes of a route change): its inputs and outputs. */
typedef struct AudioSessionRouteDescription {
    UInt32 inputCount;
    const AudioSessionPortDescription *inputs;
    UInt32 outputCount;
    const AudioSessionPortDescription *outputs;
} AudioSessionRouteDescription;

/* What a 'roch' listener receives (Apple's route-change dictionary, as a struct). */
typedef struct AudioSessionRouteChange {
    UInt32 reason;                                      /* kAudioSessionRouteChangeReason_… */
    const char *oldRoute;                               /* the previous route, named as 'rout' does */
    const AudioSessionRouteDescription *previousRoute;
    const AudioSessionRouteDescription *currentRoute;
} AudioSessionRouteChange;

/* MARK: Functions */

/* Must come first; a second call returns kAudioSessionAlreadyInitialized and keeps the first
 * listener. inRunLoop and inRunLoopMode are ignored (NULL is fine). */
OSStatus AudioSessionInitialize(
    void *inRunLoop, const void *inRunLoopMode, AudioSessionInterruptionListener inInterruptionListener,
    void *inClientData);

OSStatus AudioSessionSetActive(Boolean active);
/* inFlags: 0 or kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation; anything else is -50. */
OSStatus AudioSessionSetActiveWithFlags(Boolean active, UInt32 inFlags);

/* ioDataSize must be the property's size (else kAudioSessionBadPropertySizeError). */
OSStatus AudioSessionGetProperty(AudioSessionPropertyID inID, UInt32 *ioDataSize, void *outData);
OSStatus AudioSessionGetPropertySize(AudioSessionPropertyID inID, UInt32 *outDataSize);
OSStatus AudioSessionSetProperty(AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData);

/* Listenable: 'roch', 'died', 'chov', 'aiav', 'igav'; others give kAudioSessionUnsupportedPropertyError. */
OSStatus AudioSessionAddPropertyListener(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData);
OSStatus AudioSessionRemovePropertyListenerWithUserData(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData);

/* Linux extension, not in Apple's API: performs a system event, written as a scenario's
 * `system` step without the word (SCENARIOS.md): "call begin", "call end", "plug headset",
 * "unplug headset-1", "lock", "volume 0.5", "media-services reset" … — so a program can test its
 * own interruption and route-change handling. Embedded it acts on the process's simulated
 * device; against a daemon it needs the rights of a system controller (root or the daemon's
 * user). Returns -50 for text that names no system event, else the engine's code. */
OSStatus AudioSessionSimulateSystemEvent(const char *event);

/* MARK: Errors */

enum {
    kAudioSessionNoError = 0,
    kAudioSessionNotInitialized = 0x21696e69,          /* '!ini' 560557673 */
    kAudioSessionAlreadyInitialized = 0x696e6974,      /* 'init' 1768843636 */
    kAudioSessionInitializationError = 0x696e693f,     /* 'ini?' */
    kAudioSessionUnsupportedPropertyError = 0x7074793f, /* 'pty?' 1886681407 */
    kAudioSessionBadPropertySizeError = 0x2173697a,    /* '!siz' 561211770 */
    kAudioSessionNotActiveError = 0x21616374,          /* '!act' */
    kAudioServicesNoHardwareError = 0x6e6f6877,        /* 'nohw' */
    kAudioSessionNoCategorySet = 0x3f636174,           /* '?cat' */
    kAudioSessionIncompatibleCategory = 0x21636174,    /* '!cat' */
    kAudioSessionUnspecifiedError = 0x77686174,        /* 'what' */
    kAudioSessionBadParameterError = -50,              /* not Apple's name: its paramErr */
    /* The arbiter's refusals (SPEC §12), as AVAudioSession reports them. */
    kAudioSessionCannotInterruptOthers = 0x21696e74,   /* '!int' */
    kAudioSessionInsufficientPriority = 0x21707269,    /* '!pri' */
    kAudioSessionCannotStartPlaying = 0x21706c61,      /* '!pla' */
    kAudioSessionCannotStartRecording = 0x21726563,    /* '!rec' */
    kAudioSessionResourceNotAvailable = 0x21726573,    /* '!res' */
    kAudioSessionSiriIsRecording = 0x73697269,         /* 'siri' */
    kAudioSessionMissingEntitlement = 0x656e743f,      /* 'ent?' */
    kAudioSessionMediaServicesFailed = 0x6d737276      /* 'msrv' */
};

/* MARK: Properties */

enum {
    kAudioSessionProperty_PreferredHardwareSampleRate = 0x68777372,          /* 'hwsr' Float64, read/write */
    kAudioSessionProperty_PreferredHardwareIOBufferDuration = 0x696f6264,    /* 'iobd' Float32, read/write */
    kAudioSessionProperty_AudioCategory = 0x61636174,                        /* 'acat' UInt32, read/write */
    kAudioSessionProperty_AudioRouteChange = 0x726f6368,                     /* 'roch' listener only */
    kAudioSessionProperty_CurrentHardwareSampleRate = 0x63687372,            /* 'chsr' Float64, read */
    kAudioSessionProperty_CurrentHardwareInputNumberChannels = 0x63686963,   /* 'chic' UInt32, read */
    kAudioSessionProperty_CurrentHardwareOutputNumberChannels = 0x63686f63,  /* 'choc' UInt32, read */
    kAudioSessionProperty_CurrentHardwareOutputVolume = 0x63686f76,          /* 'chov' Float32, read, listenable */
    kAudioSessionProperty_CurrentHardwareInputLatency = 0x63696c74,          /* 'cilt' Float32, read */
    kAudioSessionProperty_CurrentHardwareOutputLatency = 0x636f6c74,         /* 'colt' Float32, read */
    kAudioSessionProperty_CurrentHardwareIOBufferDuration = 0x63686264,      /* 'chbd' Float32, read */
    kAudioSessionProperty_OtherAudioIsPlaying = 0x6f746872,                  /* 'othr' UInt32, read */
    kAudioSessionProperty_OverrideAudioRoute = 0x6f767264,                   /* 'ovrd' UInt32, write only */
    kAudioSessionProperty_AudioInputAvailable = 0x61696176,                  /* 'aiav' UInt32, read, listenable */
    kAudioSessionProperty_ServerDied = 0x64696564,                           /* 'died' listener only, UInt32 */
    kAudioSessionProperty_OtherMixableAudioShouldDuck = 0x6475636b,          /* 'duck' UInt32, read/write */
    kAudioSessionProperty_OverrideCategoryMixWithOthers = 0x636d6978,        /* 'cmix' UInt32, read/write */
    kAudioSessionProperty_OverrideCategoryDefaultToSpeaker = 0x6373706b,     /* 'cspk' UInt32, read/write */
    kAudioSessionProperty_OverrideCategoryEnableBluetoothInput = 0x63626c75, /* 'cblu' UInt32, read/write */
    kAudioSessionProperty_InterruptionType = 0x74797065,                     /* 'type' UInt32, read in the end callback */
    kAudioSessionProperty_Mode = 0x6d6f6465,                                 /* 'mode' UInt32, read/write */
    kAudioSessionProperty_InputGainAvailable = 0x69676176,                   /* 'igav' UInt32, read, listenable */
    kAudioSessionProperty_InputGainScalar = 0x69677363,                      /* 'igsc' Float32, read/write */
    kAudioSessionProperty_AudioRouteDescription = 0x63726172,                /* 'crar' const AudioSessionRouteDescription *, read */
    kAudioSessionProperty_AudioRoute = 0x726f7574,                           /* 'rout' const char *, read */
    /* Apple's iOS 5 input-source and output-destination properties: declared so code that names
     * them builds; not offered (kAudioSessionUnsupportedPropertyError). Input data sources are
     * RT12's, seen through AVAudioSession. */
    kAudioSessionProperty_InputSources = 0x73726373,                         /* 'srcs' not offered */
    kAudioSessionProperty_InputSource = 0x69737263,                          /* 'isrc' not offered */
    kAudioSessionProperty_OutputDestinations = 0x6f726473,                   /* 'ords' not offered */
    kAudioSessionProperty_OutputDestination = 0x6f647374                     /* 'odst' not offered */
};

/* MARK: Categories and modes */

enum {
    kAudioSessionCategory_AmbientSound = 0x616d6269,     /* 'ambi' */
    kAudioSessionCategory_SoloAmbientSound = 0x736f6c6f, /* 'solo' */
    kAudioSessionCategory_MediaPlayback = 0x6d656469,    /* 'medi' */
    kAudioSessionCategory_RecordAudio = 0x72656361,      /* 'reca' */
    kAudioSessionCategory_PlayAndRecord = 0x706c6172,    /* 'plar' */
    kAudioSessionCategory_AudioProcessing = 0x70726f63   /* 'proc' */
};

enum {
    kAudioSessionMode_Default = 0x64666c74,        /* 'dflt' */
    kAudioSessionMode_VoiceChat = 0x76636374,      /* 'vcct' */
    kAudioSessionMode_GameChat = 0x676d6374,       /* 'gmct' */
    kAudioSessionMode_VideoRecording = 0x76726364, /* 'vrcd' */
    kAudioSessionMode_Measurement = 0x6d736d74     /* 'msmt' */
};

/* MARK: Interruptions */

enum {
    kAudioSessionBeginInterruption = 1,
    kAudioSessionEndInterruption = 0
};

typedef UInt32 AudioSessionInterruptionType;
enum {
    kAudioSessionInterruptionType_ShouldResume = 0x6972736d,   /* 'irsm' 1769108333 */
    kAudioSessionInterruptionType_ShouldNotResume = 0x2172736d /* '!rsm' 561148781 */
};

/* MARK: Route changes, overrides, flags */

enum {
    kAudioSessionRouteChangeReason_Unknown = 0,
    kAudioSessionRouteChangeReason_NewDeviceAvailable = 1,
    kAudioSessionRouteChangeReason_OldDeviceUnavailable = 2,
    kAudioSessionRouteChangeReason_CategoryChange = 3,
    kAudioSessionRouteChangeReason_Override = 4,
    kAudioSessionRouteChangeReason_WakeFromSleep = 6,
    kAudioSessionRouteChangeReason_NoSuitableRouteForCategory = 7,
    kAudioSessionRouteChangeReason_RouteConfigurationChange = 8
};

enum {
    kAudioSessionOverrideAudioRoute_None = 0,
    kAudioSessionOverrideAudioRoute_Speaker = 0x73706b72 /* 'spkr' */
};

enum {
    kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation = (1 << 0)
};

/* Port types of AudioSessionPortDescription.type. */
#define kAudioSessionInputRoute_LineIn "LineIn"
#define kAudioSessionInputRoute_BuiltInMic "MicrophoneBuiltIn"
#define kAudioSessionInputRoute_HeadsetMic "MicrophoneWired"
#define kAudioSessionInputRoute_BluetoothHFP "BluetoothHFP"
#define kAudioSessionInputRoute_USBAudio "USBAudio"
#define kAudioSessionOutputRoute_LineOut "LineOut"
#define kAudioSessionOutputRoute_Headphones "Headphones"
#define kAudioSessionOutputRoute_BluetoothHFP "BluetoothHFP"
#define kAudioSessionOutputRoute_BluetoothA2DP "BluetoothA2DPOutput"
#define kAudioSessionOutputRoute_BuiltInReceiver "Receiver"
#define kAudioSessionOutputRoute_BuiltInSpeaker "Speaker"
#define kAudioSessionOutputRoute_USBAudio "USBAudio"
#define kAudioSessionOutputRoute_HDMI "HDMIOutput"
#define kAudioSessionOutputRoute_AirPlay "AirPlay"
#define kAudioSessionOutputRoute_CarAudio "CarAudio" /* not in Apple's header: the car port of SPEC §9 */

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSIONSERVICES_H */
