/*
 * AudioToolbox/AudioServices.h — on Apple's systems Audio Session Services and System Sound
 * Services. Here the session part (AudioSession.h); System Sound Services
 * (AudioServicesPlaySystemSound …) is not offered: there is no system sound server to play
 * them (README, "Porting iOS code").
 */
#ifndef AudioToolbox_AudioServices_h
#define AudioToolbox_AudioServices_h

#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioSession.h>

#endif /* AudioToolbox_AudioServices_h */
