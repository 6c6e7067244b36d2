/*
 * AudioToolbox/AudioConverter.h — Audio Converter Services' types and constants, as on Apple's
 * systems, for code that includes this header (pjsip's iOS audio driver does, for its
 * resampler). The converter itself is not offered: every function is declared unavailable, so a
 * call fails at compile time naming the alternative. The sound server converts sample rates and
 * formats of the streams it plays and records: open a queue or a unit in the format you have.
 */
#ifndef AudioToolbox_AudioConverter_h
#define AudioToolbox_AudioConverter_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/Unavailable.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueAudioConverter *AudioConverterRef;
typedef UInt32 AudioConverterPropertyID;

typedef struct AudioConverterPrimeInfo {
    UInt32 leadingFrames;
    UInt32 trailingFrames;
} AudioConverterPrimeInfo;

typedef OSStatus (*AudioConverterInputDataProc)(AudioConverterRef inAudioConverter, UInt32 *ioDataSize,
                                                void **outData, void *inUserData);
typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef inAudioConverter,
                                                       UInt32 *ioNumberDataPackets, AudioBufferList *ioData,
                                                       AudioStreamPacketDescription **outDataPacketDescription,
                                                       void *inUserData);

enum {
    kAudioConverterPropertyMinimumInputBufferSize = 0x6D696273,     /* 'mibs' */
    kAudioConverterPropertyMinimumOutputBufferSize = 0x6D6F6273,    /* 'mobs' */
    kAudioConverterPropertyMaximumInputPacketSize = 0x78697073,     /* 'xips' */
    kAudioConverterPropertyMaximumOutputPacketSize = 0x786F7073,    /* 'xops' */
    kAudioConverterPropertyCalculateInputBufferSize = 0x63696273,   /* 'cibs' */
    kAudioConverterPropertyCalculateOutputBufferSize = 0x636F6273,  /* 'cobs' */
    kAudioConverterSampleRateConverterComplexity = 0x73726361,      /* 'srca' */
    kAudioConverterSampleRateConverterQuality = 0x73726371,         /* 'srcq' */
    kAudioConverterCodecQuality = 0x63647175,                       /* 'cdqu' */
    kAudioConverterPrimeMethod = 0x70726D6D,                        /* 'prmm' */
    kAudioConverterPrimeInfo = 0x7072696D,                          /* 'prim' */
    kAudioConverterChannelMap = 0x63686D70,                         /* 'chmp' */
    kAudioConverterCurrentOutputStreamDescription = 0x61636F64,     /* 'acod' */
    kAudioConverterCurrentInputStreamDescription = 0x61636964,      /* 'acid' */
    kAudioConverterEncodeBitRate = 0x62726174                       /* 'brat' */
};

enum {
    kAudioConverterQuality_Max = 0x7F,
    kAudioConverterQuality_High = 0x60,
    kAudioConverterQuality_Medium = 0x40,
    kAudioConverterQuality_Low = 0x20,
    kAudioConverterQuality_Min = 0
};

enum {
    kConverterPrimeMethod_Pre = 0,
    kConverterPrimeMethod_Normal = 1,
    kConverterPrimeMethod_None = 2
};

enum {
    kAudioConverterErr_FormatNotSupported = 0x666D743F,                /* 'fmt?' */
    kAudioConverterErr_OperationNotSupported = 0x6F703F3F,             /* 'op??' */
    kAudioConverterErr_PropertyNotSupported = 0x70726F70,              /* 'prop' */
    kAudioConverterErr_InvalidInputSize = 0x696E737A,                  /* 'insz' */
    kAudioConverterErr_InvalidOutputSize = 0x6F74737A,                 /* 'otsz' */
    kAudioConverterErr_UnspecifiedError = 0x77686174,                  /* 'what' */
    kAudioConverterErr_BadPropertySizeError = 0x2173697A,              /* '!siz' */
    kAudioConverterErr_RequiresPacketDescriptionsError = 0x21706B64,   /* '!pkd' */
    kAudioConverterErr_InputSampleRateOutOfRange = 0x21697372,         /* '!isr' */
    kAudioConverterErr_OutputSampleRateOutOfRange = 0x216F7372         /* '!osr' */
};

#define AUDIOSESSION_NO_CONVERTER                                                                   \
    AUDIOSESSION_NOT_OFFERED("Audio Converter Services are not offered",                           \
                             "the sound server converts rates and formats: open the audio queue "   \
                             "or I/O unit in the format you have")

extern OSStatus AudioConverterNew(const AudioStreamBasicDescription *inSourceFormat,
                                  const AudioStreamBasicDescription *inDestinationFormat,
                                  AudioConverterRef *outAudioConverter) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterDispose(AudioConverterRef inAudioConverter) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterReset(AudioConverterRef inAudioConverter) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterGetPropertyInfo(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                              UInt32 *outSize, Boolean *outWritable) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterGetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                          UInt32 *ioPropertyDataSize, void *outPropertyData) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterSetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                          UInt32 inPropertyDataSize,
                                          const void *inPropertyData) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterConvertBuffer(AudioConverterRef inAudioConverter, UInt32 inInputDataSize,
                                            const void *inInputData, UInt32 *ioOutputDataSize,
                                            void *outOutputData) AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterFillComplexBuffer(AudioConverterRef inAudioConverter,
                                                AudioConverterComplexInputDataProc inInputDataProc,
                                                void *inInputDataProcUserData, UInt32 *ioOutputDataPacketSize,
                                                AudioBufferList *outOutputData,
                                                AudioStreamPacketDescription *outPacketDescription)
    AUDIOSESSION_NO_CONVERTER;
extern OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef inAudioConverter, UInt32 inNumberPCMFrames,
                                                   const AudioBufferList *inInputData,
                                                   AudioBufferList *outOutputData) AUDIOSESSION_NO_CONVERTER;

#ifdef __cplusplus
}
#endif

#endif /* AudioToolbox_AudioConverter_h */
