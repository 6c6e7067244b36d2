/* libpulse (Debian: libpulse-dev), found by pkg-config `libpulse`. */
#include <pulse/pulseaudio.h>
