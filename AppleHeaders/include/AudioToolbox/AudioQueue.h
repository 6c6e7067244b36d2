/*
 * AudioToolbox/AudioQueue.h — Audio Queue Services' types and constants, as on Apple's systems,
 * for code that includes this header but plays or records some other way on Linux. Every
 * function is declared unavailable: a call fails at compile time naming the alternative.
 */
#ifndef AudioToolbox_AudioQueue_h
#define AudioToolbox_AudioQueue_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFRunLoop.h>
#include <CoreFoundation/CFString.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>
#include <AudioToolbox/Unavailable.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueAudioQueue *AudioQueueRef;
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;
typedef UInt32 AudioQueuePropertyID;
typedef UInt32 AudioQueueParameterID;
typedef Float32 AudioQueueParameterValue;

typedef struct AudioStreamPacketDescription {
    SInt64 mStartOffset;
    UInt32 mVariableFramesInPacket;
    UInt32 mDataByteSize;
} AudioStreamPacketDescription;

typedef struct AudioQueueBuffer {
    const UInt32 mAudioDataBytesCapacity;
    void *const mAudioData;
    UInt32 mAudioDataByteSize;
    void *mUserData;
    const UInt32 mPacketDescriptionCapacity;
    AudioStreamPacketDescription *const mPacketDescriptions;
    UInt32 mPacketDescriptionCount;
} AudioQueueBuffer;
typedef AudioQueueBuffer *AudioQueueBufferRef;

typedef struct AudioQueueParameterEvent {
    AudioQueueParameterID mID;
    AudioQueueParameterValue mValue;
} AudioQueueParameterEvent;

typedef struct AudioQueueLevelMeterState {
    Float32 mAveragePower;
    Float32 mPeakPower;
} AudioQueueLevelMeterState;

typedef void (*AudioQueueOutputCallback)(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);
typedef void (*AudioQueueInputCallback)(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer,
                                        const AudioTimeStamp *inStartTime, UInt32 inNumberPacketDescriptions,
                                        const AudioStreamPacketDescription *inPacketDescs);
typedef void (*AudioQueuePropertyListenerProc)(void *inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID);

enum {
    kAudioQueueErr_InvalidBuffer = -66687,
    kAudioQueueErr_BufferEmpty = -66686,
    kAudioQueueErr_DisposalPending = -66685,
    kAudioQueueErr_InvalidProperty = -66684,
    kAudioQueueErr_InvalidPropertySize = -66683,
    kAudioQueueErr_InvalidParameter = -66682,
    kAudioQueueErr_CannotStart = -66681,
    kAudioQueueErr_InvalidDevice = -66680,
    kAudioQueueErr_BufferInQueue = -66679,
    kAudioQueueErr_InvalidRunState = -66678,
    kAudioQueueErr_InvalidQueueType = -66677,
    kAudioQueueErr_Permissions = -66676,
    kAudioQueueErr_InvalidPropertyValue = -66675,
    kAudioQueueErr_PrimeTimedOut = -66674,
    kAudioQueueErr_CodecNotFound = -66673,
    kAudioQueueErr_InvalidCodecAccess = -66672,
    kAudioQueueErr_QueueInvalidated = -66671,
    kAudioQueueErr_EnqueueDuringReset = -66632,
};

enum {
    kAudioQueueProperty_IsRunning = 0x6171726E, /* 'aqrn' */
    kAudioQueueDeviceProperty_SampleRate = 0x61717372, /* 'aqsr' */
    kAudioQueueDeviceProperty_NumberChannels = 0x61716463, /* 'aqdc' */
    kAudioQueueProperty_CurrentDevice = 0x61716364, /* 'aqcd' */
    kAudioQueueProperty_MagicCookie = 0x61716D63, /* 'aqmc' */
    kAudioQueueProperty_MaximumOutputPacketSize = 0x786F7073, /* 'xops' */
    kAudioQueueProperty_StreamDescription = 0x61716674, /* 'aqft' */
    kAudioQueueProperty_ChannelLayout = 0x6171636C, /* 'aqcl' */
    kAudioQueueProperty_EnableLevelMetering = 0x61716D65, /* 'aqme' */
    kAudioQueueProperty_CurrentLevelMeter = 0x61716D76, /* 'aqmv' */
    kAudioQueueProperty_CurrentLevelMeterDB = 0x61716D64, /* 'aqmd' */
};

enum {
    kAudioQueueParam_Volume = 1,
    kAudioQueueParam_PlayRate = 2,
    kAudioQueueParam_Pitch = 3,
    kAudioQueueParam_VolumeRampTime = 4,
    kAudioQueueParam_Pan = 13,
};

#define AUDIOSESSION_NO_QUEUE                                                                       \
    AUDIOSESSION_NOT_OFFERED("Audio Queue Services are not offered",                                \
                             "play with AudioSessionMedia's AudioPlayer (Swift) or a PulseAudio/"   \
                             "PipeWire stream of your own, and manage the session with AudioSession*")

extern OSStatus AudioQueueNewOutput(const AudioStreamBasicDescription *inFormat, AudioQueueOutputCallback inCallbackProc,
                                    void *inUserData, CFRunLoopRef inCallbackRunLoop, CFStringRef inCallbackRunLoopMode,
                                    UInt32 inFlags, AudioQueueRef *outAQ) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueNewInput(const AudioStreamBasicDescription *inFormat, AudioQueueInputCallback inCallbackProc,
                                   void *inUserData, CFRunLoopRef inCallbackRunLoop, CFStringRef inCallbackRunLoopMode,
                                   UInt32 inFlags, AudioQueueRef *outAQ) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueDispose(AudioQueueRef inAQ, Boolean inImmediate) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueAllocateBuffer(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                         AudioQueueBufferRef *outBuffer) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueFreeBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueEnqueueBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, UInt32 inNumPacketDescs,
                                        const AudioStreamPacketDescription *inPacketDescs) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueStart(AudioQueueRef inAQ, const AudioTimeStamp *inStartTime) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueuePrime(AudioQueueRef inAQ, UInt32 inNumberOfFramesToPrepare,
                                UInt32 *outNumberOfFramesPrepared) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueStop(AudioQueueRef inAQ, Boolean inImmediate) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueuePause(AudioQueueRef inAQ) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueFlush(AudioQueueRef inAQ) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueReset(AudioQueueRef inAQ) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueGetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                       AudioQueueParameterValue *outValue) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueSetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                       AudioQueueParameterValue inValue) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueGetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, void *outData,
                                      UInt32 *ioDataSize) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueSetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, const void *inData,
                                      UInt32 inDataSize) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueGetPropertySize(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                          UInt32 *outDataSize) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueAddPropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                              AudioQueuePropertyListenerProc inProc,
                                              void *inUserData) AUDIOSESSION_NO_QUEUE;
extern OSStatus AudioQueueRemovePropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                                 AudioQueuePropertyListenerProc inProc,
                                                 void *inUserData) AUDIOSESSION_NO_QUEUE;

#ifdef __cplusplus
}
#endif

#endif /* AudioToolbox_AudioQueue_h */
