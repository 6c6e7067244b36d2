/* libyaml (Debian: libyaml-dev), the YAML 1.1 parser Yams wraps: read here directly so the
 * daemon keeps to FoundationEssentials (Yams links the whole of Foundation and ICU). */
#if !__has_include(<yaml.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <yaml.h>
