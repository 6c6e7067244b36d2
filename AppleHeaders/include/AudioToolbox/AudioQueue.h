/*
 * AudioToolbox/AudioQueue.h — Audio Queue Services (SPEC §19 SO4), as on Apple's systems: the
 * declarations are the C form's (AudioQueueServices.h, which says how queues behave here); the
 * run-loop arguments are CoreFoundation's types, accepted and ignored.
 */
#ifndef AudioToolbox_AudioQueue_h
#define AudioToolbox_AudioQueue_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFRunLoop.h>
#include <CoreFoundation/CFString.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>
#include <AudioQueueServices.h>

#endif /* AudioToolbox_AudioQueue_h */
