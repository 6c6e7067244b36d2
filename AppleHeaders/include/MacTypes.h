/*
 * MacTypes.h — the Mac integer, float and string types Apple's C code uses, as on Apple's
 * systems (Boolean is an unsigned char), for code ported to Linux. Defines __MACTYPES__ so
 * CoreFoundation's CFBase.h (the Swift toolchain's) takes these instead of its own.
 */
#ifndef __MACTYPES__
#define __MACTYPES__

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t UInt8;
typedef int8_t SInt8;
typedef uint16_t UInt16;
typedef int16_t SInt16;
typedef uint32_t UInt32;
typedef int32_t SInt32;
typedef uint64_t UInt64;
typedef int64_t SInt64;
typedef float Float32;
typedef double Float64;
typedef unsigned char Boolean;
typedef SInt32 OSStatus;
typedef SInt16 OSErr;
typedef UInt32 FourCharCode;
typedef FourCharCode OSType;
typedef FourCharCode ResType;
typedef UInt8 Byte;
typedef SInt8 SignedByte;
typedef char *Ptr;
typedef Ptr *Handle;
typedef long Size;
typedef unsigned short UniChar;
typedef unsigned long UniCharCount;
typedef unsigned char *StringPtr;
typedef const unsigned char *ConstStringPtr;
typedef unsigned char Str255[256];
typedef const unsigned char *ConstStr255Param;
typedef SInt16 RegionCode;
typedef SInt16 LangCode;
typedef SInt16 ScriptCode;
typedef UInt32 UTF32Char;
typedef UInt16 UTF16Char;
typedef UInt8 UTF8Char;
typedef SInt32 Fixed;
typedef UInt32 UnsignedFixed;
typedef SInt16 ShortFixed;

enum { noErr = 0, paramErr = -50 };

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

#ifdef __cplusplus
}
#endif

#endif /* __MACTYPES__ */
