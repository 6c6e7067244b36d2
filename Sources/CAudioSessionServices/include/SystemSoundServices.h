/*
 * SystemSoundServices.h — Apple's System Sound Services (SPEC §19 SO6) in this library's C form:
 * a sound file is named by its path (UTF-8). Apple's form (<AudioToolbox/AudioServices.h>) takes
 * a CFURLRef instead.
 *
 *  - A system sound plays at once, mixed with everything: it neither ducks nor interrupts, is never
 *    ducked, and ignores the app's category and activation. It is silent while the silent switch
 *    is on and during a system call (its completion is still called).
 *  - A sound longer than 30 s is refused (kAudioServicesSystemSoundExceededMaximumDurationError);
 *    a file that is no sound libsndfile reads, with kAudioServicesSystemSoundUnspecifiedError; a
 *    missing one with kAudio_FileNotFoundError.
 *  - Completions run on a thread the library owns. kSystemSoundID_Vibrate plays nothing (there is
 *    no vibrator) and completes at once. The block-taking functions (…WithCompletion) are not
 *    offered: C compilers here have no blocks; use AudioServicesAddSystemSoundCompletion.
 */
#ifndef AUDIOSESSION_SYSTEMSOUNDSERVICES_H
#define AUDIOSESSION_SYSTEMSOUNDSERVICES_H

#include <CoreAudioBaseTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

struct __CFRunLoop;
struct __CFString;

typedef UInt32 SystemSoundID;
typedef void (*AudioServicesSystemSoundCompletionProc)(SystemSoundID ssID, void *clientData);

enum {
    kSystemSoundID_FlashScreen = 0x00000FFE,
    kSystemSoundID_Vibrate = 0x00000FFF,
    kSystemSoundID_UserPreferredAlert = 0x00001000
};

enum {
    kAudioServicesNoError = 0,
    kAudioServicesUnsupportedPropertyError = 0x7074793F,    /* 'pty?' */
    kAudioServicesBadPropertySizeError = 0x2173697A,        /* '!siz' */
    kAudioServicesBadSpecifierSizeError = 0x21737063,       /* '!spc' */
    kAudioServicesSystemSoundUnspecifiedError = -1500,
    kAudioServicesSystemSoundClientTimedOutError = -1501,
    kAudioServicesSystemSoundExceededMaximumDurationError = -1502
};

extern OSStatus AudioServicesCreateSystemSoundID(const char *inFilePath, SystemSoundID *outSystemSoundID);
extern OSStatus AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);
extern void AudioServicesPlaySystemSound(SystemSoundID inSystemSoundID);
extern void AudioServicesPlayAlertSound(SystemSoundID inSystemSoundID);
extern OSStatus AudioServicesAddSystemSoundCompletion(SystemSoundID inSystemSoundID, struct __CFRunLoop *inRunLoop,
                                                      const struct __CFString *inRunLoopMode,
                                                      AudioServicesSystemSoundCompletionProc inCompletionRoutine,
                                                      void *inClientData);
extern void AudioServicesRemoveSystemSoundCompletion(SystemSoundID inSystemSoundID);

#ifdef __cplusplus
}
#endif

#endif /* AUDIOSESSION_SYSTEMSOUNDSERVICES_H */
