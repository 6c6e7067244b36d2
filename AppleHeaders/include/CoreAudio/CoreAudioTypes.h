/*
 * CoreAudioTypes.h — the plain data types of Apple's Core Audio that session code passes
 * around (stream formats, buffer lists, timestamps), for code ported to Linux. Types only; they
 * are the C form's (CoreAudioBaseTypes.h), declared once for both forms.
 */
#ifndef CoreAudio_CoreAudioTypes_h
#define CoreAudio_CoreAudioTypes_h

#include <MacTypes.h>
#include <CoreAudioBaseTypes.h>

#endif /* CoreAudio_CoreAudioTypes_h */
