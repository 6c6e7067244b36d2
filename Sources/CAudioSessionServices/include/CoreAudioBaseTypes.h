/*
 * CoreAudioBaseTypes.h — Core Audio's plain data types (stream formats, buffer lists,
 * timestamps, format IDs and flags), shared by this library's C form (AudioQueueServices.h,
 * AudioComponentServices.h, SystemSoundServices.h) and Apple's form (<CoreAudio/CoreAudioTypes.h>
 * includes this file), so that both forms declare them once, identically.
 */
#ifndef AUDIOSESSION_COREAUDIOBASETYPES_H
#define AUDIOSESSION_COREAUDIOBASETYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Mac integer types these use (the same as MacTypes.h's; a repeated typedef is allowed). */
typedef uint8_t UInt8;
typedef int16_t SInt16;
typedef uint16_t UInt16;
typedef uint32_t UInt32;
typedef int32_t SInt32;
typedef uint64_t UInt64;
typedef int64_t SInt64;
typedef float Float32;
typedef double Float64;
typedef unsigned char Boolean;
typedef int32_t OSStatus;

typedef Float32 AudioSampleType;
typedef SInt32 AudioUnitSampleType;
typedef UInt32 AudioFormatID;
typedef UInt32 AudioFormatFlags;
typedef UInt32 AudioChannelLabel;
typedef UInt32 AudioChannelLayoutTag;

typedef struct AudioStreamBasicDescription {
    Float64 mSampleRate;
    AudioFormatID mFormatID;
    AudioFormatFlags mFormatFlags;
    UInt32 mBytesPerPacket;
    UInt32 mFramesPerPacket;
    UInt32 mBytesPerFrame;
    UInt32 mChannelsPerFrame;
    UInt32 mBitsPerChannel;
    UInt32 mReserved;
} AudioStreamBasicDescription;

typedef struct AudioBuffer {
    UInt32 mNumberChannels;
    UInt32 mDataByteSize;
    void *mData;
} AudioBuffer;

typedef struct AudioBufferList {
    UInt32 mNumberBuffers;
    AudioBuffer mBuffers[1];
} AudioBufferList;

typedef struct SMPTETime {
    SInt16 mSubframes;
    SInt16 mSubframeDivisor;
    UInt32 mCounter;
    UInt32 mType;
    UInt32 mFlags;
    SInt16 mHours;
    SInt16 mMinutes;
    SInt16 mSeconds;
    SInt16 mFrames;
} SMPTETime;

typedef struct AudioTimeStamp {
    Float64 mSampleTime;
    UInt64 mHostTime;
    Float64 mRateScalar;
    UInt64 mWordClockTime;
    SMPTETime mSMPTETime;
    UInt32 mFlags;
    UInt32 mReserved;
} AudioTimeStamp;

enum {
    kAudioTimeStampSampleTimeValid = (1U << 0),
    kAudioTimeStampHostTimeValid = (1U << 1),
    kAudioTimeStampRateScalarValid = (1U << 2),
    kAudioTimeStampWordClockTimeValid = (1U << 3),
    kAudioTimeStampSMPTETimeValid = (1U << 4)
};

enum {
    kAudioFormatLinearPCM = 0x6c70636d,    /* 'lpcm' */
    kAudioFormatAC3 = 0x61632d33,          /* 'ac-3' */
    kAudioFormatAppleIMA4 = 0x696d6134,    /* 'ima4' */
    kAudioFormatMPEG4AAC = 0x61616320,     /* 'aac ' */
    kAudioFormatAppleLossless = 0x616c6163, /* 'alac' */
    kAudioFormatULaw = 0x756c6177,         /* 'ulaw' */
    kAudioFormatALaw = 0x616c6177,         /* 'alaw' */
    kAudioFormatMPEGLayer3 = 0x2e6d7033,   /* '.mp3' */
    kAudioFormatFLAC = 0x666c6163,         /* 'flac' */
    kAudioFormatOpus = 0x6f707573          /* 'opus' */
};

enum {
    kAudioFormatFlagIsFloat = (1U << 0),
    kAudioFormatFlagIsBigEndian = (1U << 1),
    kAudioFormatFlagIsSignedInteger = (1U << 2),
    kAudioFormatFlagIsPacked = (1U << 3),
    kAudioFormatFlagIsAlignedHigh = (1U << 4),
    kAudioFormatFlagIsNonInterleaved = (1U << 5),
    kAudioFormatFlagIsNonMixable = (1U << 6),
    kAudioFormatFlagsAreAllClear = 0x80000000U,
    kLinearPCMFormatFlagIsFloat = kAudioFormatFlagIsFloat,
    kLinearPCMFormatFlagIsBigEndian = kAudioFormatFlagIsBigEndian,
    kLinearPCMFormatFlagIsSignedInteger = kAudioFormatFlagIsSignedInteger,
    kLinearPCMFormatFlagIsPacked = kAudioFormatFlagIsPacked,
    kLinearPCMFormatFlagIsNonInterleaved = kAudioFormatFlagIsNonInterleaved,
    kAudioFormatFlagsNativeEndian = 0,
    kAudioFormatFlagsNativeFloatPacked = kAudioFormatFlagIsFloat | kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
};


typedef struct AudioStreamPacketDescription {
    SInt64 mStartOffset;
    UInt32 mVariableFramesInPacket;
    UInt32 mDataByteSize;
} AudioStreamPacketDescription;

/* Apple's general errors that the sound objects return. */
enum {
    kAudio_UnimplementedError = -4,
    kAudio_FileNotFoundError = -43,
    kAudio_ParamError = -50,
    kAudio_MemFullError = -108,
    kAudioFormatUnsupportedDataFormatError = 0x666d743f /* 'fmt?' */
};

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSION_COREAUDIOBASETYPES_H */
