/*
 * AudioToolbox/AudioConverter.h — Audio Converter Services, as on Apple's systems, for linear
 * PCM (SPEC §19 SO9): the declarations are the C form's (AudioConverterServices.h, which says how
 * the converter behaves here). pjsip's iOS audio driver includes it for its resampler.
 */
#ifndef AudioToolbox_AudioConverter_h
#define AudioToolbox_AudioConverter_h

#include <MacTypes.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioConverterServices.h>

#endif /* AudioToolbox_AudioConverter_h */
