/* A minimal check harness for the C API tests: each EXPECT prints ok/FAIL; main returns failures. */
#ifndef CHECK_H
#define CHECK_H
#include <AudioSessionServices.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static int failures;

#define EXPECT(condition, what)                                              \
    do {                                                                     \
        if (condition) {                                                     \
            printf("ok %s\n", what);                                         \
        } else {                                                             \
            printf("FAIL %s (%s:%d)\n", what, __FILE__, __LINE__);           \
            failures++;                                                      \
        }                                                                    \
        fflush(stdout);                                                      \
    } while (0)

/* The status a call must return. */
#define EXPECT_STATUS(call, expected, what)                                  \
    do {                                                                     \
        OSStatus got_ = (call);                                              \
        if (got_ != (OSStatus)(expected))                                    \
            printf("   %s returned %d, expected %d\n", #call, (int)got_, (int)(expected)); \
        EXPECT(got_ == (OSStatus)(expected), what);                          \
    } while (0)

/* Waits up to five seconds until *flag reaches value (listeners run on the library's queue). */
static inline int waitFor(atomic_int *flag, int value) {
    for (int i = 0; i < 500 && atomic_load(flag) < value; i++) usleep(10000);
    return atomic_load(flag) >= value;
}

static inline UInt32 getUInt32(AudioSessionPropertyID id, OSStatus *status) {
    UInt32 value = 0, size = sizeof(value);
    *status = AudioSessionGetProperty(id, &size, &value);
    return value;
}

static inline OSStatus setUInt32(AudioSessionPropertyID id, UInt32 value) {
    return AudioSessionSetProperty(id, sizeof(value), &value);
}

static inline Float32 getFloat32(AudioSessionPropertyID id, OSStatus *status) {
    Float32 value = 0;
    UInt32 size = sizeof(value);
    *status = AudioSessionGetProperty(id, &size, &value);
    return value;
}

#endif
