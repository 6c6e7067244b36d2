/* libpulse (Debian: libpulse-dev), found by pkg-config `libpulse`. */
#if !__has_include(<pulse/pulseaudio.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <pulse/pulseaudio.h>
/* The servers' saved per-program volume and mute (module-stream-restore; pipewire-pulse passes it to WirePlumber). */
#include <pulse/ext-stream-restore.h>
