/*
 * AudioToolbox/AudioServices.h — Audio Session Services (AudioSession.h) and System Sound
 * Services (SPEC §19 SO6), as on Apple's systems: a system sound is created from a CFURLRef (a
 * file URL); everything else is the C form's (SystemSoundServices.h, which says how system sounds
 * behave here). The block-taking …WithCompletion functions are not offered (C compilers here
 * have no blocks): use AudioServicesAddSystemSoundCompletion.
 */
#ifndef AudioToolbox_AudioServices_h
#define AudioToolbox_AudioServices_h

#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioSession.h>
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFURL.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>
#include <SystemSoundServices.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The CoreFoundation entry point: the sound file as a file URL. */
OSStatus AudioServicesCreateSystemSoundIDCF(CFURLRef inFileURL, SystemSoundID *outSystemSoundID);

#ifndef AUDIOSESSION_CF_IMPLEMENTATION
#define AudioServicesCreateSystemSoundID AudioServicesCreateSystemSoundIDCF
#endif

#ifdef __cplusplus
}
#endif

#endif /* AudioToolbox_AudioServices_h */
