/* libsamplerate (Debian: libsamplerate0-dev): the one sample-rate converter (ARCHITECTURE rev. 6),
 * band-limited sinc interpolation — what the engine's mixer inputs, output node and AVAudioConverter use. */
#if !__has_include(<samplerate.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <samplerate.h>
