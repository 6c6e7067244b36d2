/*
 * AudioToolbox/AudioToolbox.h — the umbrella header, as on Apple's systems, for the parts this
 * system offers: the Mac types, Core Audio's data types, Audio Session Services in Apple's
 * CoreFoundation form (AudioSession.h), System Sound Services (AudioServices.h, SO6) and Audio
 * Queue Services (AudioQueue.h, SO4); the I/O units are in AudioUnit/AudioUnit.h (SO5). Audio
 * File and Audio Converter Services are declared (their types and constants) but not offered: a
 * call to one of their functions fails at compile time naming the alternative (README, "Porting
 * iOS code").
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
