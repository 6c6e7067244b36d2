/*
 * AudioToolbox/AudioToolbox.h — the umbrella header, as on Apple's systems, for the parts this
 * system offers: the Mac types, Core Audio's data types and Audio Session Services in Apple's
 * CoreFoundation form (AudioSession.h). Audio Queue, Audio Units, Audio File and System Sound
 * Services are not offered (README, "Porting iOS code").
 */
#ifndef AudioToolbox_AudioToolbox_h
#define AudioToolbox_AudioToolbox_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioServices.h>

#endif /* AudioToolbox_AudioToolbox_h */
