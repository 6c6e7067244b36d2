/*
 * AudioQueueServices.h — Apple's Audio Queue Services (SPEC §19 SO4) in this library's C form;
 * Apple's <AudioToolbox/AudioQueue.h> is the same declarations. Linear PCM only (16-bit integer
 * or 32-bit float, interleaved, 1–8 channels, 8–192 kHz); a compressed format is refused with
 * kAudioFormatUnsupportedDataFormatError ('fmt?').
 *
 *  - A queue plays on the sound server as a stream of the app's own (the daemon gives it the
 *    session's route and gain), or with AUDIOSESSION_RENDER_DIR set into the simulated device's
 *    files; an input queue records the session's input.
 *  - Callbacks and property listeners run on a thread the library owns, one at a time per
 *    queue; the run-loop arguments are accepted and ignored (pass NULL). A callback may call any
 *    function of this API (enqueue the buffer again, stop the queue).
 *  - AudioQueueStart is the session's output (input) starting: an inactive session is activated
 *    (IO1); refused, Start returns the activation's error (e.g. '!pri' during a call) and nothing
 *    plays. An interruption stops the queue (kAudioQueueProperty_IsRunning becomes 0 and its
 *    listeners are called); after the end the app starts it again.
 *  - A queue that is not (or no longer) a live queue of this process is refused with
 *    kAudio_ParamError; a buffer that is not this queue's with kAudioQueueErr_InvalidBuffer, one
 *    enqueued twice with kAudioQueueErr_BufferInQueue.
 */
#ifndef AUDIOSESSION_AUDIOQUEUESERVICES_H
#define AUDIOSESSION_AUDIOQUEUESERVICES_H

#include <CoreAudioBaseTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct __CFRunLoop;
struct __CFString;

typedef struct OpaqueAudioQueue *AudioQueueRef;
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;
typedef UInt32 AudioQueuePropertyID;
typedef UInt32 AudioQueueParameterID;
typedef Float32 AudioQueueParameterValue;

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

extern OSStatus AudioQueueNewOutput(const AudioStreamBasicDescription *inFormat, AudioQueueOutputCallback inCallbackProc,
                                    void *inUserData, struct __CFRunLoop * inCallbackRunLoop, const struct __CFString * inCallbackRunLoopMode,
                                    UInt32 inFlags, AudioQueueRef *outAQ);
extern OSStatus AudioQueueNewInput(const AudioStreamBasicDescription *inFormat, AudioQueueInputCallback inCallbackProc,
                                   void *inUserData, struct __CFRunLoop * inCallbackRunLoop, const struct __CFString * inCallbackRunLoopMode,
                                   UInt32 inFlags, AudioQueueRef *outAQ);
extern OSStatus AudioQueueDispose(AudioQueueRef inAQ, Boolean inImmediate);
extern OSStatus AudioQueueAllocateBuffer(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                         AudioQueueBufferRef *outBuffer);
extern OSStatus AudioQueueFreeBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);
extern OSStatus AudioQueueEnqueueBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, UInt32 inNumPacketDescs,
                                        const AudioStreamPacketDescription *inPacketDescs);
extern OSStatus AudioQueueStart(AudioQueueRef inAQ, const AudioTimeStamp *inStartTime);
extern OSStatus AudioQueuePrime(AudioQueueRef inAQ, UInt32 inNumberOfFramesToPrepare,
                                UInt32 *outNumberOfFramesPrepared);
extern OSStatus AudioQueueStop(AudioQueueRef inAQ, Boolean inImmediate);
extern OSStatus AudioQueuePause(AudioQueueRef inAQ);
extern OSStatus AudioQueueFlush(AudioQueueRef inAQ);
extern OSStatus AudioQueueReset(AudioQueueRef inAQ);
extern OSStatus AudioQueueGetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                       AudioQueueParameterValue *outValue);
extern OSStatus AudioQueueSetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID,
                                       AudioQueueParameterValue inValue);
extern OSStatus AudioQueueGetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, void *outData,
                                      UInt32 *ioDataSize);
extern OSStatus AudioQueueSetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, const void *inData,
                                      UInt32 inDataSize);
extern OSStatus AudioQueueGetPropertySize(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                          UInt32 *outDataSize);
extern OSStatus AudioQueueAddPropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                              AudioQueuePropertyListenerProc inProc,
                                              void *inUserData);
extern OSStatus AudioQueueRemovePropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                                 AudioQueuePropertyListenerProc inProc,
                                                 void *inUserData);

extern OSStatus AudioQueueAllocateBufferWithPacketDescriptions(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                                        UInt32 inNumberPacketDescriptions,
                                                        AudioQueueBufferRef *outBuffer);
extern OSStatus AudioQueueGetCurrentTime(AudioQueueRef inAQ, AudioQueueTimelineRef inTimeline,
                                         AudioTimeStamp *outTimeStamp, Boolean *outTimelineDiscontinuity);

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSION_AUDIOQUEUESERVICES_H */
