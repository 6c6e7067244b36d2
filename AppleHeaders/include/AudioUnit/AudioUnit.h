/*
 * AudioUnit/AudioUnit.h — the I/O audio units (SPEC §19 SO5), as on Apple's systems: RemoteIO
 * and VoiceProcessingIO through the AudioComponent API. The declarations are the C form's
 * (AudioUnitServices.h, which says how the units behave here); other unit types are not found.
 */
#ifndef AudioUnit_AudioUnit_h
#define AudioUnit_AudioUnit_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioUnitServices.h>

#endif /* AudioUnit_AudioUnit_h */
