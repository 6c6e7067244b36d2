/*
 * AudioUnit/AudioUnit.h — Audio Units' types and constants, as on Apple's systems (the remote
 * I/O unit's component description, render callbacks, properties, scopes, errors), for code that
 * includes this header but renders audio some other way on Linux. Every function is declared
 * unavailable: a call fails at compile time naming the alternative.
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/Unavailable.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
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
    kAudioUnitManufacturer_Apple = 0x6170706C, /* 'appl' */
};

enum {
    kAudioUnitScope_Global = 0,
    kAudioUnitScope_Input = 1,
    kAudioUnitScope_Output = 2,
};

enum {
    kAudioUnitProperty_StreamFormat = 8,
    kAudioUnitProperty_SetRenderCallback = 23,
    kAudioUnitProperty_MaximumFramesPerSlice = 14,
    kAudioOutputUnitProperty_EnableIO = 2003,
    kAudioOutputUnitProperty_SetInputCallback = 2005,
};

enum {
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
};

#define AUDIOSESSION_NO_UNITS                                                                       \
    AUDIOSESSION_NOT_OFFERED("Audio Units are not offered",                                         \
                             "render into a PulseAudio/PipeWire stream of your own (libpulse), "    \
                             "and manage the session with AudioSession*")

extern AudioComponent AudioComponentFindNext(AudioComponent inComponent,
                                             const AudioComponentDescription *inDesc) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioComponentInstanceNew(AudioComponent inComponent,
                                          AudioComponentInstance *outInstance) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitInitialize(AudioUnit inUnit) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitUninitialize(AudioUnit inUnit) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, const void *inData,
                                     UInt32 inDataSize) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                     AudioUnitElement inElement, void *outData, UInt32 *ioDataSize) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                                      AudioUnitElement inElement, AudioUnitParameterValue inValue,
                                      UInt32 inBufferOffsetInFrames) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
                                const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames,
                                AudioBufferList *ioData) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioOutputUnitStart(AudioUnit ci) AUDIOSESSION_NO_UNITS;
extern OSStatus AudioOutputUnitStop(AudioUnit ci) AUDIOSESSION_NO_UNITS;

#ifdef __cplusplus
}
#endif

#endif /* AudioUnit_AudioUnit_h */
