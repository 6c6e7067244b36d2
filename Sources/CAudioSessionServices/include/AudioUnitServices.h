/*
 * AudioUnitServices.h — the I/O audio units (SPEC §19 SO5) in this library's C form; Apple's
 * <AudioUnit/AudioUnit.h> is the same declarations.
 *
 *  - AudioComponentFindNext finds kAudioUnitType_Output units of subtype RemoteIO and
 *    VoiceProcessingIO, and the kAudioUnitType_FormatConverter unit of subtype AUConverter (a 0
 *    field of the description matches anything), nothing else. AudioComponentCopyName gives
 *    Apple's names ("Apple: AURemoteIO", "Apple: AUVoiceProcessingIO", "Apple: AUConverter"): here
 *    a C string the library owns; in Apple's form (AudioUnit/AudioUnit.h) a CFStringRef to release.
 *  - kAudioUnitProperty_SampleRate reads, on any scope and bus, the rate of that bus's stream
 *    format, and writes it (SO9).
 *  - The converter unit (SO9): the stream format of its input scope is what its input render
 *    callback (kAudioUnitProperty_SetRenderCallback on the input scope) gives, that of its output
 *    scope what AudioUnitRender on bus 0 fills; linear PCM to linear PCM (rate, channels, 16-bit
 *    integer or 32-bit float), through the one converter Audio Converter Services use
 *    (AudioConverterServices.h). AudioUnitRender calls the callback on the caller's thread, as
 *    many times as the conversion needs.
 *  - Bus 0 is the speaker (the app renders into it: kAudioUnitScope_Input, element 0), bus 1 the
 *    microphone (the app reads it: kAudioUnitScope_Output, element 1); EnableIO turns each on
 *    (output on, input off, as on iOS). StreamFormat takes linear PCM as Audio Queues do
 *    (AudioQueueServices.h), interleaved.
 *  - The render callback is asked for the session's IO buffer duration in frames; the input
 *    callback is told that many frames are ready, and AudioUnitRender on bus 1 copies them (into
 *    the app's buffer, or the unit's own when mData is NULL). Callbacks run on a thread the
 *    library owns.
 *  - AudioOutputUnitStart is the session's output (and input) starting (IO1); an interruption
 *    stops the unit (kAudioOutputUnitProperty_IsRunning becomes 0, its listeners are called).
 *  - VoiceProcessingIO asks the sound server for echo cancellation (its streams carry the phone
 *    role and filter.want=echo-cancel: PulseAudio's module-filter-apply loads module-echo-cancel
 *    for them); where the server has none it behaves as RemoteIO.
 */
#ifndef AUDIOSESSION_AUDIOUNITSERVICES_H
#define AUDIOSESSION_AUDIOUNITSERVICES_H

#include <CoreAudioBaseTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The AudioComponent API of macOS 10.6 and later (code that tests it falls back otherwise). */
#define AUDIO_UNIT_VERSION 1070

typedef struct OpaqueAudioComponent *AudioComponent;
typedef struct ComponentInstanceRecord *AudioComponentInstance;
typedef AudioComponentInstance AudioUnit;
typedef UInt32 AudioUnitPropertyID;
typedef UInt32 AudioUnitScope;
typedef UInt32 AudioUnitElement;
typedef UInt32 AudioUnitParameterID;
typedef Float32 AudioUnitParameterValue;
typedef UInt32 AudioUnitRenderActionFlags;

typedef struct AudioComponentDescription {
    UInt32 componentType;
    UInt32 componentSubType;
    UInt32 componentManufacturer;
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} AudioComponentDescription;

typedef OSStatus (*AURenderCallback)(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags,
                                     const AudioTimeStamp *inTimeStamp, UInt32 inBusNumber, UInt32 inNumberFrames,
                                     AudioBufferList *ioData);

typedef struct AURenderCallbackStruct {
    AURenderCallback inputProc;
    void *inputProcRefCon;
} AURenderCallbackStruct;

enum {
    kAudioUnitType_Output = 0x61756F75, /* 'auou' */
    kAudioUnitType_Mixer = 0x61756D78, /* 'aumx' */
    kAudioUnitType_Effect = 0x61756678, /* 'aufx' */
    kAudioUnitType_FormatConverter = 0x61756663, /* 'aufc' */
    kAudioUnitType_Generator = 0x6175676E, /* 'augn' */
};

enum {
    kAudioUnitSubType_RemoteIO = 0x72696F63, /* 'rioc' */
    kAudioUnitSubType_VoiceProcessingIO = 0x7670696F, /* 'vpio' */
    kAudioUnitSubType_GenericOutput = 0x67656E72, /* 'genr' */
    kAudioUnitSubType_MultiChannelMixer = 0x6D636D78, /* 'mcmx' */
    kAudioUnitSubType_AUConverter = 0x636F6E76, /* 'conv' */
    kAudioUnitManufacturer_Apple = 0x6170706C, /* 'appl' */
};

enum {
    kAudioUnitScope_Global = 0,
    kAudioUnitScope_Input = 1,
    kAudioUnitScope_Output = 2,
};

enum {
    kAudioUnitProperty_ClassInfo = 0,
    kAudioUnitProperty_SampleRate = 2,
    kAudioUnitProperty_StreamFormat = 8,
    kAudioUnitProperty_MaximumFramesPerSlice = 14,
    kAudioUnitProperty_SetRenderCallback = 23,
    kAudioUnitProperty_ShouldAllocateBuffer = 51,
    kAudioOutputUnitProperty_IsRunning = 2001,
    kAudioOutputUnitProperty_EnableIO = 2003,
    kAudioOutputUnitProperty_SetInputCallback = 2005,
    kAUVoiceIOProperty_BypassVoiceProcessing = 2100,
    kAUVoiceIOProperty_VoiceProcessingEnableAGC = 2101,
    kAUVoiceIOProperty_MuteOutput = 2104,
};

enum {
    kAudioUnitRenderAction_PreRender = (1U << 2),
    kAudioUnitRenderAction_PostRender = (1U << 3),
    kAudioUnitRenderAction_OutputIsSilence = (1U << 4),
};

enum {
    kAudioUnitErr_InvalidProperty = -10879,
    kAudioUnitErr_InvalidParameter = -10878,
    kAudioUnitErr_InvalidElement = -10877,
    kAudioUnitErr_NoConnection = -10876,
    kAudioUnitErr_FailedInitialization = -10875,
    kAudioUnitErr_TooManyFramesToProcess = -10874,
    kAudioUnitErr_FormatNotSupported = -10868,
    kAudioUnitErr_Uninitialized = -10867,
    kAudioUnitErr_InvalidScope = -10866,
    kAudioUnitErr_CannotDoInCurrentContext = -10863,
    kAudioUnitErr_Initialized = -10849,
    kAudioComponentErr_InstanceInvalidated = -66749,
};

typedef void (*AudioUnitPropertyListenerProc)(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement);

extern AudioComponent AudioComponentFindNext(AudioComponent inComponent,
                                             const AudioComponentDescription *inDesc);
extern OSStatus AudioComponentInstanceNew(AudioComponent inComponent,
                                          AudioComponentInstance *outInstance);
extern OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance);
extern OSStatus AudioUnitInitialize(AudioUnit inUnit);
extern OSStatus AudioUnitUninitialize(AudioUnit inUnit);
extern OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, const void *inData,
                                     UInt32 inDataSize);
extern OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, void *outData, UInt32 *ioDataSize);
extern OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                      AudioUnitElement inElement, AudioUnitParameterValue inValue,
                                      UInt32 inBufferOffsetInFrames);
extern OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                                const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                                AudioBufferList *ioData);
extern OSStatus AudioOutputUnitStart(AudioUnit ci);
extern OSStatus AudioOutputUnitStop(AudioUnit ci);

extern OSStatus AudioComponentGetDescription(AudioComponent inComponent, AudioComponentDescription *outDesc);
/* The C form: a C string the library owns, valid as long as the process runs (Apple's form: a
 * CFStringRef). */
extern OSStatus AudioComponentCopyName(AudioComponent inComponent, const char **outName);
extern OSStatus AudioUnitGetPropertyInfo(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                         AudioUnitElement inElement, UInt32 *outDataSize, Boolean *outWritable);
extern OSStatus AudioUnitGetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                      AudioUnitElement inElement, AudioUnitParameterValue *outValue);
extern OSStatus AudioUnitAddPropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                             AudioUnitPropertyListenerProc inProc, void *inProcUserData);
extern OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                            AudioUnitPropertyListenerProc inProc,
                                                            void *inProcUserData);

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSION_AUDIOUNITSERVICES_H */
