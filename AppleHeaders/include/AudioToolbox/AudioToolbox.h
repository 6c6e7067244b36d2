/*
 * AudioToolbox/AudioToolbox.h — the umbrella header, as on Apple's systems, for the parts this
 * system offers: the Mac types, Core Audio's data types and Audio Session Services in Apple's
 * CoreFoundation form (AudioSession.h). Audio Queue and Audio File Services are declared
 * (AudioQueue.h, AudioFile.h: their types and constants) but not offered: a call to one of their
 * functions fails at compile time naming the alternative (README, "Porting iOS code"); so do
 * Audio Units (AudioUnit/AudioUnit.h). System Sound Services are not declared.
 */
#ifndef AudioToolbox_AudioToolbox_h
#define AudioToolbox_AudioToolbox_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioServices.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioConverter.h>

#endif /* AudioToolbox_AudioToolbox_h */
