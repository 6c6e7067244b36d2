/*
 * AudioToolbox/CoreFoundationEpilogue.h — after the toolchain's CoreFoundation headers: the
 * program's own TARGET_OS_IPHONE and TARGET_OS_IOS back (see CoreFoundationPrelude.h), 0 when
 * it gave none. No include guard: once per prelude.
 */
#pragma pop_macro("TARGET_OS_IOS")
#pragma pop_macro("TARGET_OS_IPHONE")
#ifndef TARGET_OS_IPHONE
#define TARGET_OS_IPHONE 0
#endif
#ifndef TARGET_OS_IOS
#define TARGET_OS_IOS 0
#endif
