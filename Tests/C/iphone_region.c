/* A portable C library's audio code as it is written for iOS and elsewhere: the session part
 * behind `#if TARGET_OS_IPHONE`. Built in Apple's form with -DTARGET_OS_IPHONE=1, the region
 * compiles and its session code runs (the toolchain's CoreFoundation headers, which define it 0,
 * no longer take the program's value: AudioToolbox/CoreFoundationPrelude.h). Built without it,
 * the region is compiled out, as the toolchain has it, and this program says so (exit 3). */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>

#include "check.h"

#if TARGET_OS_IPHONE
/* What such a library does when its audio starts: a playback category, mixing, then active. */
static int start_session(void) {
    EXPECT(AudioSessionInitialize(NULL, NULL, NULL, NULL) == noErr, "AudioSessionInitialize");
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category) == noErr,
           "set the playback category");
    UInt32 mix = 1;
    EXPECT(AudioSessionSetProperty(kAudioSessionProperty_OverrideCategoryMixWithOthers, sizeof mix, &mix) == noErr,
           "mix with others");
    EXPECT(AudioSessionSetActive(true) == noErr, "activate");
    UInt32 readBack = 0;
    UInt32 size = sizeof readBack;
    EXPECT(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &size, &readBack) == noErr &&
               readBack == kAudioSessionCategory_MediaPlayback,
           "the category read back is the one set");
    return failures;
}
#endif

int main(void) {
#if TARGET_OS_IPHONE
    int failed = start_session();
    printf("iphone_region: the TARGET_OS_IPHONE region was built and its session code ran (%d failures)\n", failed);
    return failed;
#else
    printf("iphone_region: the TARGET_OS_IPHONE region was compiled out (TARGET_OS_IPHONE is %d)\n", TARGET_OS_IPHONE);
    return 3 + failures;
#endif
}
