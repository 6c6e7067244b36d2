/*
 * AudioToolbox/AudioFile.h — Audio File Services' types and constants, as on Apple's systems,
 * for code that includes this header but reads and writes sound files some other way on Linux.
 * Every function is declared unavailable: a call fails at compile time naming the alternative.
 */
#ifndef AudioToolbox_AudioFile_h
#define AudioToolbox_AudioFile_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFURL.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/Unavailable.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueAudioFileID *AudioFileID;
typedef UInt32 AudioFileTypeID;
typedef UInt32 AudioFilePropertyID;
typedef SInt8 AudioFilePermissions;
typedef UInt32 AudioFileFlags;

enum {
    kAudioFileAIFFType = 0x41494646, /* 'AIFF' */
    kAudioFileAIFCType = 0x41494643, /* 'AIFC' */
    kAudioFileWAVEType = 0x57415645, /* 'WAVE' */
    kAudioFileRF64Type = 0x52463634, /* 'RF64' */
    kAudioFileMP3Type = 0x4D504733, /* 'MPG3' */
    kAudioFileAAC_ADTSType = 0x61647473, /* 'adts' */
    kAudioFileMPEG4Type = 0x6D703466, /* 'mp4f' */
    kAudioFileM4AType = 0x6D346166, /* 'm4af' */
    kAudioFileCAFType = 0x63616666, /* 'caff' */
    kAudioFileFLACType = 0x666C6163, /* 'flac' */
};

enum {
    kAudioFileUnspecifiedError = 0x7768743F, /* 'wht?' */
    kAudioFileUnsupportedFileTypeError = 0x7479703F, /* 'typ?' */
    kAudioFileUnsupportedDataFormatError = 0x666D743F, /* 'fmt?' */
    kAudioFileUnsupportedPropertyError = 0x7074793F, /* 'pty?' */
    kAudioFileBadPropertySizeError = 0x2173697A, /* '!siz' */
    kAudioFilePermissionsError = 0x70726D3F, /* 'prm?' */
    kAudioFileNotOptimizedError = 0x6F70746D, /* 'optm' */
    kAudioFileInvalidChunkError = 0x63686B3F, /* 'chk?' */
    kAudioFileDoesNotAllow64BitDataSizeError = 0x6F66663F, /* 'off?' */
    kAudioFileInvalidPacketOffsetError = 0x70636B3F, /* 'pck?' */
    kAudioFileInvalidFileError = 0x6474613F, /* 'dta?' */
    kAudioFileOperationNotSupportedError = 0x6F703F3F, /* 'op??' */
    kAudioFileNotOpenError = -38,
    kAudioFileEndOfFileError = -39,
    kAudioFilePositionError = -40,
    kAudioFileFileNotFoundError = -43,
};

enum {
    kAudioFileReadPermission = 0x01,
    kAudioFileWritePermission = 0x02,
    kAudioFileReadWritePermission = 0x03,
};

enum {
    kAudioFileFlags_EraseFile = 1,
    kAudioFileFlags_DontPageAlignAudioData = 2,
};

enum {
    kAudioFilePropertyFileFormat = 0x66666D74, /* 'ffmt' */
    kAudioFilePropertyDataFormat = 0x64666D74, /* 'dfmt' */
    kAudioFilePropertyMagicCookieData = 0x6D676963, /* 'mgic' */
    kAudioFilePropertyAudioDataByteCount = 0x62636E74, /* 'bcnt' */
    kAudioFilePropertyAudioDataPacketCount = 0x70636E74, /* 'pcnt' */
    kAudioFilePropertyMaximumPacketSize = 0x70737A65, /* 'psze' */
    kAudioFilePropertyEstimatedDuration = 0x65647572, /* 'edur' */
    kAudioFilePropertyChannelLayout = 0x636D6170, /* 'cmap' */
};

#define AUDIOSESSION_NO_FILE                                                                        \
    AUDIOSESSION_NOT_OFFERED("Audio File Services are not offered",                                 \
                             "read and write sound files with libsndfile (AudioSessionMedia's AudioPlayer " \
                             "plays them in Swift)")

extern OSStatus AudioFileOpenURL(CFURLRef inFileRef, AudioFilePermissions inPermissions, AudioFileTypeID inFileTypeHint,
                                 AudioFileID *outAudioFile) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileCreateWithURL(CFURLRef inFileRef, AudioFileTypeID inFileType,
                                       const AudioStreamBasicDescription *inFormat, AudioFileFlags inFlags,
                                       AudioFileID *outAudioFile) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileClose(AudioFileID inAudioFile) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileReadBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                                   UInt32 *ioNumBytes, void *outBuffer) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileWriteBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte,
                                    UInt32 *ioNumBytes, const void *inBuffer) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileReadPacketData(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *ioNumBytes,
                                        AudioStreamPacketDescription *outPacketDescriptions, SInt64 inStartingPacket,
                                        UInt32 *ioNumPackets, void *outBuffer) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileWritePackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 inNumBytes,
                                      const AudioStreamPacketDescription *inPacketDescriptions,
                                      SInt64 inStartingPacket, UInt32 *ioNumPackets,
                                      const void *inBuffer) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileGetPropertyInfo(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 *outDataSize,
                                         UInt32 *isWritable) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileGetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 *ioDataSize,
                                     void *outPropertyData) AUDIOSESSION_NO_FILE;
extern OSStatus AudioFileSetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 inDataSize,
                                     const void *inPropertyData) AUDIOSESSION_NO_FILE;

#ifdef __cplusplus
}
#endif

#endif /* AudioToolbox_AudioFile_h */
