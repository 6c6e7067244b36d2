/* libsndfile (Debian: libsndfile1-dev): WAV, FLAC, Ogg Vorbis reading and writing. */
#if !__has_include(<sndfile.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <sndfile.h>
