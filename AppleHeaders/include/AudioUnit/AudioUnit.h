/*
 * AudioUnit/AudioUnit.h — the audio units (SPEC §19 SO5, SO9), as on Apple's systems: RemoteIO
 * and VoiceProcessingIO, and the AUConverter format converter, through the AudioComponent API.
 * The declarations are the C form's (AudioUnitServices.h, which says how the units behave here);
 * other unit types are not found. AudioComponentCopyName gives a CFStringRef (release it).
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFString.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>
#include <AudioUnitServices.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The CoreFoundation entry point: Apple's name of a component as a CFString. */
OSStatus AudioComponentCopyNameCF(AudioComponent inComponent, CFStringRef *outName);

#ifndef AUDIOSESSION_CF_IMPLEMENTATION
#define AudioComponentCopyName AudioComponentCopyNameCF
#endif

#ifdef __cplusplus
}
#endif

#endif /* AudioUnit_AudioUnit_h */
