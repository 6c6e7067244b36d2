/* A program that never heard of us and makes a "call": one process that plays a quiet tone
 * and records from a source, as a browser meeting or a softphone does (SPEC §18). Used by the
 * call tests and the benchmark (compiled by them with cc and libpulse-simple).
 *
 *   fake-call [--source NAME] [--no-playback] [--capture-first] [--name APP] STEP...
 *
 * STEP is `record MS` (the capture stream open for MS ms) or `quiet MS` (no capture for MS ms);
 * the playback stream plays from 300 ms before the first step to the end of the last (none with
 * --no-playback). --source: the source to record (default: the server's). --name: its
 * application.name (default "Fake Call"). Prints "capture open at NS" / "capture closed at NS"
 * (nanoseconds since 1970, as the fake MPRIS player prints its status) and "done" at the end.
 * SIGUSR1 ends the step under way at once (a test ends a long call when it is done with it,
 * rather than guess a length that outlasts its checks on a loaded machine). */
#include <math.h>
#include <signal.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE 48000
#define CHUNK_FRAMES 480 /* 10 ms */

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* Nanoseconds since 1970, for the printed times. */
static unsigned long long wall_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static volatile sig_atomic_t cut_step;
static void on_usr1(int signal) {
    (void)signal;
    cut_step = 1;
}

static void sleep_ns(uint64_t ns) {
    struct timespec t = {(time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL)};
    nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
    const char *source = NULL, *name = "Fake Call";
    int playback = 1, capture_first = 0, first_step = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--source") == 0 && i + 1 < argc) source = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) name = argv[++i];
        else if (strcmp(argv[i], "--no-playback") == 0) playback = 0;
        else if (strcmp(argv[i], "--capture-first") == 0) capture_first = 1;
        else if (strcmp(argv[i], "record") == 0 || strcmp(argv[i], "quiet") == 0) {
            first_step = i;
            break;
        } else {
            fprintf(stderr, "fake-call: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if ((argc - first_step) % 2 != 0 || first_step == argc) {
        fprintf(stderr, "fake-call: steps are 'record MS' or 'quiet MS'\n");
        return 2;
    }
    struct sigaction cut = {0};
    cut.sa_handler = on_usr1;
    cut.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &cut, NULL);
    sigset_t usr1; /* a test's thread may start it with signals blocked */
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_UNBLOCK, &usr1, NULL);
    pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = RATE, .channels = 1};
    int error = 0;
    pa_simple *out = NULL, *early = NULL;
    if (capture_first) {
        /* Open, not read (its source may have no data yet): a capture on the server all the same. */
        early = pa_simple_new(NULL, name, PA_STREAM_RECORD, source, "Microphone", &spec, NULL, NULL, &error);
        if (!early) {
            fprintf(stderr, "fake-call: cannot record: %s\n", pa_strerror(error));
            return 1;
        }
        printf("capture open at %llu\n", wall_ns());
        fflush(stdout);
    }
    if (playback) {
        pa_buffer_attr attr = {(uint32_t)-1, (uint32_t)(RATE / 10 * 2), (uint32_t)-1, (uint32_t)-1, (uint32_t)-1};
        out = pa_simple_new(NULL, name, PA_STREAM_PLAYBACK, NULL, "Playback", &spec, NULL, &attr, &error);
        if (!out) {
            fprintf(stderr, "fake-call: cannot play: %s\n", pa_strerror(error));
            return 1;
        }
    }
    int16_t tone[CHUNK_FRAMES], heard[CHUNK_FRAMES];
    uint64_t frame = 0;
    /* 300 ms of playback first: the sink runs, so a source made of its monitor (the tests' mic)
     * has data and the first capture's reads return at once. */
    for (int chunk = 0; out && chunk < 30; chunk++) {
        for (int i = 0; i < CHUNK_FRAMES; i++, frame++) tone[i] = (int16_t)(3000 * sin(2 * M_PI * 440 * (double)frame / RATE));
        if (pa_simple_write(out, tone, sizeof tone, &error) < 0) {
            fprintf(stderr, "fake-call: write: %s\n", pa_strerror(error));
            return 1;
        }
    }
    for (int step = first_step; step < argc; step += 2) {
        int record = strcmp(argv[step], "record") == 0;
        uint64_t until = now_ns() + (uint64_t)atol(argv[step + 1]) * 1000000ULL;
        pa_simple *in = NULL;
        if (record) {
            /* 10 ms fragments: by default the server may gather 2 s before the first read returns. */
            pa_buffer_attr small = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)(CHUNK_FRAMES * 2)};
            in = pa_simple_new(NULL, name, PA_STREAM_RECORD, source, "Microphone", &spec, NULL, &small, &error);
            if (!in) {
                fprintf(stderr, "fake-call: cannot record: %s\n", pa_strerror(error));
                return 1;
            }
            printf("capture open at %llu\n", wall_ns());
            fflush(stdout);
        }
        if (early) {
            pa_simple_free(early);
            early = NULL;
        }
        while (now_ns() < until && !cut_step) {
            if (out) {
                for (int i = 0; i < CHUNK_FRAMES; i++, frame++)
                    tone[i] = (int16_t)(3000 * sin(2 * M_PI * 440 * (double)frame / RATE));
                if (pa_simple_write(out, tone, sizeof tone, &error) < 0) {
                    fprintf(stderr, "fake-call: write: %s\n", pa_strerror(error));
                    return 1;
                }
            }
            if (in) {
                if (pa_simple_read(in, heard, sizeof heard, &error) < 0) {
                    fprintf(stderr, "fake-call: read: %s\n", pa_strerror(error));
                    return 1;
                }
            } else if (!out) {
                sleep_ns(10000000ULL);
            }
        }
        cut_step = 0;
        if (in) {
            pa_simple_free(in);
            printf("capture closed at %llu\n", wall_ns());
            fflush(stdout);
        }
    }
    if (out) pa_simple_free(out);
    printf("done\n");
    return 0;
}
