/* libsndfile (Debian: libsndfile1-dev): WAV, FLAC, Ogg Vorbis reading and writing. */
#include <sndfile.h>
