/* FFmpeg's libraries (Debian: libavformat-dev, libavcodec-dev, libswresample-dev): the codecs
   libsndfile has not — AAC and Apple Lossless in MP4/M4A/CAF, MP3, ADTS — read and written
   behind the one sound-file seam (SPEC SO8). */
#if !__has_include(<libavformat/avformat.h>) || !__has_include(<libswresample/swresample.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift does not import. */
static inline int cffmpeg_eagain(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_eof(void) { return AVERROR_EOF; }
