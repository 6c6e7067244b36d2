/*
 * AudioToolbox/CoreFoundationPrelude.h — what Apple's audio headers need before the toolchain's
 * CoreFoundation headers: those test __LITTLE_ENDIAN__ or __BIG_ENDIAN__, which gcc does not
 * set. (CoreFoundation.h itself needs blocks, which gcc does not take: each header includes the
 * CF parts it uses.)
 */
#ifndef AudioToolbox_CoreFoundationPrelude_h
#define AudioToolbox_CoreFoundationPrelude_h

#if !defined(__LITTLE_ENDIAN__) && !defined(__BIG_ENDIAN__)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define __BIG_ENDIAN__ 1
#else
#define __LITTLE_ENDIAN__ 1
#endif
#endif
#include <CoreFoundation/CFBase.h>

#endif /* AudioToolbox_CoreFoundationPrelude_h */
