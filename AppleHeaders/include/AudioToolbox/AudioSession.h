/*
 * AudioToolbox/AudioSession.h — Apple's Audio Session Services in Apple's own form, for C code
 * written for iOS: `kAudioSessionProperty_AudioRoute` reads a CFStringRef (release it with
 * CFRelease), `kAudioSessionProperty_AudioRouteDescription` a CFDictionaryRef (release it too),
 * and a `kAudioSessionProperty_AudioRouteChange` listener receives a CFDictionaryRef with
 * Apple's keys (use them with CFSTR()). The CoreFoundation is the one the Swift toolchain ships
 * on Linux (its libFoundation).
 *
 * Everything else is the project's C API (AudioSessionServices.h, SPEC §14), which this header
 * includes: the same functions, properties, errors and behaviour. The form is chosen by the
 * header: the three functions whose data differ are mapped to their CoreFoundation entry
 * points below; a program that includes <AudioSessionServices.h> instead gets C strings and
 * structs. Build with `pkg-config --cflags --libs AudioToolbox`.
 *
 * Not here, because a header cannot honestly offer them without their engines: Audio Queue,
 * Audio Units, Audio File and System Sound Services (README, "Porting iOS code").
 */
#ifndef AudioToolbox_AudioSession_h
#define AudioToolbox_AudioSession_h

#include <MacTypes.h>

/* The toolchain's CoreFoundation headers, the parts this API uses. */
#include <AudioToolbox/CoreFoundationPrelude.h>
#include <CoreFoundation/CFArray.h>
#include <CoreFoundation/CFDictionary.h>
#include <CoreFoundation/CFNumber.h>
#include <CoreFoundation/CFString.h>
#include <AudioToolbox/CoreFoundationEpilogue.h>

#include <AudioSessionServices.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: Apple's route-change dictionary keys (CFSTR(key)) */

#define kAudioSession_AudioRouteChangeKey_Reason "OutputDeviceDidChange_Reason"       /* CFNumber, SInt32 */
#define kAudioSession_AudioRouteChangeKey_OldRoute "OutputDeviceDidChange_OldRoute"   /* CFString */
#define kAudioSession_AudioRouteChangeKey_PreviousRouteDescription "AudioRouteChangeKey_PreviousRouteDescription"
#define kAudioSession_AudioRouteChangeKey_CurrentRouteDescription "AudioRouteChangeKey_CurrentRouteDescription"

/* A route description (iOS 5): CFArrays of port dictionaries under Inputs and Outputs. */
#define kAudioSession_AudioRouteKey_Inputs "RouteDetailedDescription_Inputs"
#define kAudioSession_AudioRouteKey_Outputs "RouteDetailedDescription_Outputs"
#define kAudioSession_AudioRouteKey_Type "RouteDetailedDescription_PortType" /* CFString */
/* Not in Apple's header: each port's UID and name, which this system knows too. */
#define kAudioSession_AudioRouteKey_UID "RouteDetailedDescription_UID"
#define kAudioSession_AudioRouteKey_Name "RouteDetailedDescription_Name"

/* MARK: Port types, as CFStrings (Apple declares them as CFStringRef constants) */

#undef kAudioSessionInputRoute_LineIn
#undef kAudioSessionInputRoute_BuiltInMic
#undef kAudioSessionInputRoute_HeadsetMic
#undef kAudioSessionInputRoute_BluetoothHFP
#undef kAudioSessionInputRoute_USBAudio
#undef kAudioSessionOutputRoute_LineOut
#undef kAudioSessionOutputRoute_Headphones
#undef kAudioSessionOutputRoute_BluetoothHFP
#undef kAudioSessionOutputRoute_BluetoothA2DP
#undef kAudioSessionOutputRoute_BuiltInReceiver
#undef kAudioSessionOutputRoute_BuiltInSpeaker
#undef kAudioSessionOutputRoute_USBAudio
#undef kAudioSessionOutputRoute_HDMI
#undef kAudioSessionOutputRoute_AirPlay
#undef kAudioSessionOutputRoute_CarAudio
#define kAudioSessionInputRoute_LineIn CFSTR("LineIn")
#define kAudioSessionInputRoute_BuiltInMic CFSTR("MicrophoneBuiltIn")
#define kAudioSessionInputRoute_HeadsetMic CFSTR("MicrophoneWired")
#define kAudioSessionInputRoute_BluetoothHFP CFSTR("BluetoothHFP")
#define kAudioSessionInputRoute_USBAudio CFSTR("USBAudio")
#define kAudioSessionOutputRoute_LineOut CFSTR("LineOut")
#define kAudioSessionOutputRoute_Headphones CFSTR("Headphones")
#define kAudioSessionOutputRoute_BluetoothHFP CFSTR("BluetoothHFP")
#define kAudioSessionOutputRoute_BluetoothA2DP CFSTR("BluetoothA2DPOutput")
#define kAudioSessionOutputRoute_BuiltInReceiver CFSTR("Receiver")
#define kAudioSessionOutputRoute_BuiltInSpeaker CFSTR("Speaker")
#define kAudioSessionOutputRoute_USBAudio CFSTR("USBAudio")
#define kAudioSessionOutputRoute_HDMI CFSTR("HDMIOutput")
#define kAudioSessionOutputRoute_AirPlay CFSTR("AirPlay")
#define kAudioSessionOutputRoute_CarAudio CFSTR("CarAudio")

/* MARK: The CoreFoundation entry points */

/* 'rout' gives a CFStringRef, 'crar' a CFDictionaryRef, both +1 (CFRelease them); every other
 * property is as in AudioSessionServices.h. */
OSStatus AudioSessionGetPropertyCF(AudioSessionPropertyID inID, UInt32 *ioDataSize, void *outData);
/* A 'roch' listener is called with a CFDictionaryRef as inData (valid during the call);
 * every other property is as in AudioSessionServices.h. */
OSStatus AudioSessionAddPropertyListenerCF(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData);
OSStatus AudioSessionRemovePropertyListenerWithUserDataCF(
    AudioSessionPropertyID inID, AudioSessionPropertyListener inProc, void *inClientData);

#ifndef AUDIOSESSION_CF_IMPLEMENTATION
#define AudioSessionGetProperty AudioSessionGetPropertyCF
#define AudioSessionAddPropertyListener AudioSessionAddPropertyListenerCF
#define AudioSessionRemovePropertyListenerWithUserData AudioSessionRemovePropertyListenerWithUserDataCF
#endif

#ifdef __cplusplus
}
#endif

#endif /* AudioToolbox_AudioSession_h */
