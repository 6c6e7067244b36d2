/*
 * TargetConditionals.h — Apple's TARGET_* conditionals, answered for Linux, for C code that
 * includes it (pjsip, SDKs written for iOS). Every TARGET_OS_* of Apple's systems is 0 unless the
 * build defines it, so a library built with -DTARGET_OS_IPHONE=1 runs its iOS code paths against
 * this system (README, "Porting iOS code"); TARGET_OS_LINUX and TARGET_OS_UNIX are 1.
 *
 * The toolchain's CoreFoundation includes this file instead of its own conditionals when it is on
 * the include path, so it defines everything CoreFoundation reads, with the same values.
 */
#ifndef __TARGETCONDITIONALS__
#define __TARGETCONDITIONALS__

/* Apple's systems: 0 unless the build says otherwise. */
#ifndef TARGET_OS_DARWIN
#define TARGET_OS_DARWIN 0
#endif
#ifndef TARGET_OS_MAC
#define TARGET_OS_MAC 0
#endif
#ifndef TARGET_OS_OSX
#define TARGET_OS_OSX 0
#endif
#ifndef TARGET_OS_IPHONE
#define TARGET_OS_IPHONE 0
#endif
#ifndef TARGET_OS_IOS
#define TARGET_OS_IOS 0
#endif
#ifndef TARGET_OS_MACCATALYST
#define TARGET_OS_MACCATALYST 0
#endif
#ifndef TARGET_OS_TV
#define TARGET_OS_TV 0
#endif
#ifndef TARGET_OS_WATCH
#define TARGET_OS_WATCH 0
#endif
#ifndef TARGET_OS_VISION
#define TARGET_OS_VISION 0
#endif
#ifndef TARGET_OS_BRIDGE
#define TARGET_OS_BRIDGE 0
#endif
#ifndef TARGET_OS_SIMULATOR
#define TARGET_OS_SIMULATOR 0
#endif
#ifndef TARGET_IPHONE_SIMULATOR
#define TARGET_IPHONE_SIMULATOR 0
#endif
#ifndef TARGET_OS_EMBEDDED
#define TARGET_OS_EMBEDDED 0
#endif
#ifndef TARGET_OS_NANO
#define TARGET_OS_NANO 0
#endif

/* This system. */
#define TARGET_OS_LINUX 1
#define TARGET_OS_UNIX 1
#define TARGET_OS_WINDOWS 0
#define TARGET_OS_WIN32 0
#define TARGET_OS_BSD 0
#define TARGET_OS_ANDROID 0
#define TARGET_OS_CYGWIN 0
#define TARGET_OS_WASI 0

/* The processor. */
#define TARGET_CPU_PPC 0
#define TARGET_CPU_PPC64 0
#define TARGET_CPU_MIPS 0
#define TARGET_CPU_MIPS64 0
#define TARGET_CPU_S390X 0
#define TARGET_CPU_WASM32 0
#if defined(__x86_64__)
#define TARGET_CPU_X86 0
#define TARGET_CPU_X86_64 1
#define TARGET_CPU_ARM 0
#define TARGET_CPU_ARM64 0
#elif defined(__aarch64__)
#define TARGET_CPU_X86 0
#define TARGET_CPU_X86_64 0
#define TARGET_CPU_ARM 0
#define TARGET_CPU_ARM64 1
#elif defined(__i386__)
#define TARGET_CPU_X86 1
#define TARGET_CPU_X86_64 0
#define TARGET_CPU_ARM 0
#define TARGET_CPU_ARM64 0
#elif defined(__arm__)
#define TARGET_CPU_X86 0
#define TARGET_CPU_X86_64 0
#define TARGET_CPU_ARM 1
#define TARGET_CPU_ARM64 0
#else
#define TARGET_CPU_X86 0
#define TARGET_CPU_X86_64 0
#define TARGET_CPU_ARM 0
#define TARGET_CPU_ARM64 0
#endif

/* The runtime. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TARGET_RT_LITTLE_ENDIAN 0
#define TARGET_RT_BIG_ENDIAN 1
#else
#define TARGET_RT_LITTLE_ENDIAN 1
#define TARGET_RT_BIG_ENDIAN 0
#endif
#if defined(__LP64__)
#define TARGET_RT_64_BIT 1
#else
#define TARGET_RT_64_BIT 0
#endif
#define TARGET_RT_MAC_CFM 0
#define TARGET_RT_MAC_MACHO 0

#endif /* __TARGETCONDITIONALS__ */
