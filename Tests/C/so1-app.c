/* An iOS-style app ported to Linux that plays through a Linux library, not through ours (SPEC §19
 * SO1): it initializes its audio session (Audio Session Services, with an interruption listener),
 * sets the mediaPlayback category, activates only with --activate, and plays a 440 Hz tone at
 * half of full scale with libpulse-simple, as OpenAL, SDL or GStreamer would, in the same process.
 * Used by the SO1 tests (compiled by them with cc, libAudioSessionServices and libpulse-simple).
 *
 *   so1-app [--activate] SECONDS
 *
 * Prints "playing" once its stream is open, "interruption begin" / "interruption end" as its
 * listener hears them, and "done" at the end. */
#include <AudioSessionServices.h>
#include <math.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000
#define CHUNK_FRAMES 480 /* 10 ms */

static void interrupted(void *data, UInt32 state) {
    (void)data;
    printf("interruption %s\n", state == kAudioSessionBeginInterruption ? "begin" : "end");
    fflush(stdout);
}

int main(int argc, char **argv) {
    int activate = 0;
    double seconds = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--activate") == 0) activate = 1;
        else seconds = atof(argv[i]);
    }
    if (seconds <= 0) {
        fprintf(stderr, "so1-app: usage: so1-app [--activate] SECONDS\n");
        return 2;
    }
    OSStatus status = AudioSessionInitialize(NULL, NULL, interrupted, NULL);
    UInt32 category = kAudioSessionCategory_MediaPlayback;
    if (status == 0) status = AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, sizeof category, &category);
    if (status == 0 && activate) status = AudioSessionSetActive(1);
    if (status != 0) {
        fprintf(stderr, "so1-app: the session said %d\n", (int)status);
        return 1;
    }
    pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = RATE, .channels = 1};
    int error = 0;
    pa_simple *out = pa_simple_new(NULL, "SO1 App", PA_STREAM_PLAYBACK, NULL, "Music", &spec, NULL, NULL, &error);
    if (!out) {
        fprintf(stderr, "so1-app: cannot play: %s\n", pa_strerror(error));
        return 1;
    }
    printf("playing\n");
    fflush(stdout);
    int16_t tone[CHUNK_FRAMES];
    uint64_t frame = 0;
    for (long chunk = 0; chunk < (long)(seconds * 100); chunk++) {
        for (int i = 0; i < CHUNK_FRAMES; i++, frame++) tone[i] = (int16_t)(16384 * sin(2 * M_PI * 440 * (double)frame / RATE));
        if (pa_simple_write(out, tone, sizeof tone, &error) < 0) {
            fprintf(stderr, "so1-app: write: %s\n", pa_strerror(error));
            return 1;
        }
    }
    pa_simple_drain(out, &error);
    pa_simple_free(out);
    printf("done\n");
    return 0;
}
