/*
 * AudioConverterServices.h — Audio Converter Services for linear PCM (SPEC §19 SO9) in this
 * library's C form; Apple's <AudioToolbox/AudioConverter.h> is the same declarations.
 *
 *  - AudioConverterNew converts linear PCM to linear PCM: any rate 8–192 kHz to any other
 *    (libsamplerate's band-limited sinc, the converter AVAudioConverter uses), 1–8 channels to
 *    1–8 (mono spread to every channel, several mixed down to mono by their mean, else the first
 *    channels kept, or kAudioConverterChannelMap's), 16-bit signed integer or 32-bit float,
 *    interleaved, native-endian. A compressed format on either side is
 *    kAudioConverterErr_FormatNotSupported ('fmt?'): nothing is encoded or decoded here.
 *  - AudioConverterFillComplexBuffer asks its input procedure for packets (frames) as the
 *    conversion needs them, on the caller's thread; the procedure ends the input by giving 0
 *    packets (what the converter holds then comes out) or by returning an error (returned as it
 *    is, with the packets made so far in *ioOutputDataPacketSize).
 *  - AudioConverterConvertBuffer and AudioConverterConvertComplexBuffer do not change the rate
 *    (kAudioConverterErr_OperationNotSupported where the formats' rates differ, as on Apple's).
 *  - AudioConverterReset forgets what the converter holds (call it after a seek or a gap).
 *  - Properties: the current input and output stream descriptions, sample-rate converter
 *    quality (read and written), prime info (0 leading and trailing frames), the maximum packet
 *    sizes, the minimum buffer sizes and the channel map; others are
 *    kAudioConverterErr_PropertyNotSupported.
 */
#ifndef AUDIOSESSION_AUDIOCONVERTERSERVICES_H
#define AUDIOSESSION_AUDIOCONVERTERSERVICES_H

#include <CoreAudioBaseTypes.h>

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

extern OSStatus AudioConverterNew(const AudioStreamBasicDescription *inSourceFormat,
                                  const AudioStreamBasicDescription *inDestinationFormat,
                                  AudioConverterRef *outAudioConverter);
extern OSStatus AudioConverterDispose(AudioConverterRef inAudioConverter);
extern OSStatus AudioConverterReset(AudioConverterRef inAudioConverter);
extern OSStatus AudioConverterGetPropertyInfo(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                              UInt32 *outSize, Boolean *outWritable);
extern OSStatus AudioConverterGetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                          UInt32 *ioPropertyDataSize, void *outPropertyData);
extern OSStatus AudioConverterSetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                          UInt32 inPropertyDataSize, const void *inPropertyData);
extern OSStatus AudioConverterConvertBuffer(AudioConverterRef inAudioConverter, UInt32 inInputDataSize,
                                            const void *inInputData, UInt32 *ioOutputDataSize, void *outOutputData);
extern OSStatus AudioConverterFillComplexBuffer(AudioConverterRef inAudioConverter,
                                                AudioConverterComplexInputDataProc inInputDataProc,
                                                void *inInputDataProcUserData, UInt32 *ioOutputDataPacketSize,
                                                AudioBufferList *outOutputData,
                                                AudioStreamPacketDescription *outPacketDescription);
extern OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef inAudioConverter, UInt32 inNumberPCMFrames,
                                                   const AudioBufferList *inInputData,
                                                   AudioBufferList *outOutputData);

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSION_AUDIOCONVERTERSERVICES_H */
