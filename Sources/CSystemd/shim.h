/* sd-bus from libsystemd (Debian: libsystemd-dev): the players bridge's session bus (SPEC §16)
 * and the MediaPlayer product's MPRIS player. Only those link it; the daemon, the client library
 * and the C library never do. */
#if !__has_include(<systemd/sd-bus.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <systemd/sd-bus.h>
#include <poll.h>
#include <sys/eventfd.h>
