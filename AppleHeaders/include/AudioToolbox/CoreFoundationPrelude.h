/*
 * AudioToolbox/CoreFoundationPrelude.h — included before the toolchain's CoreFoundation headers
 * (CoreFoundationEpilogue.h after them), every time: no include guard.
 *
 * Endianness: those headers test __LITTLE_ENDIAN__ or __BIG_ENDIAN__, which gcc does not set.
 * (CoreFoundation.h itself needs blocks, which gcc does not take: each header includes the CF
 * parts it uses.)
 *
 * TARGET_OS_IPHONE and TARGET_OS_IOS: the toolchain's headers are Linux's and define both 0 —
 * which would silently compile out a C library's audio-session code behind `#if TARGET_OS_IPHONE`,
 * even when built with -DTARGET_OS_IPHONE=1. They are 0 inside those headers only (they need
 * it so), and the program's own value is given back after them: build such code with
 * -DTARGET_OS_IPHONE=1 and its session code runs (README, "Porting iOS code"). Without it
 * they stay 0, as the toolchain has them.
 */
#if !defined(__LITTLE_ENDIAN__) && !defined(__BIG_ENDIAN__)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define __BIG_ENDIAN__ 1
#else
#define __LITTLE_ENDIAN__ 1
#endif
#endif

#pragma push_macro("TARGET_OS_IPHONE")
#pragma push_macro("TARGET_OS_IOS")
#undef TARGET_OS_IPHONE
#undef TARGET_OS_IOS
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#include <CoreFoundation/CFBase.h>
