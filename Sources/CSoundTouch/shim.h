/* SoundTouch (Debian: libsoundtouch-dev), its C interface: time-stretching and pitch-shifting for
 * AVAudioUnitTimePitch (SPEC EN4) — LGPL, so that apps linking AVFAudio may stay closed. */
#if !__has_include(<SoundTouchDLL.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <SoundTouchDLL.h>
