/* The physical floor of AVAudioEngine's render benchmark (pulse-bench --engine): the same work
 * done by hand in C — N looping stereo buffers, each at its own volume, added into one stereo
 * 480-frame slice, 6,000 slices (60 s of audio at 48 kHz) — timed in thread CPU time.
 * Prints "floor, N buffers: X ms CPU per second of audio" for N = 1, 8, 32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double threadCPU(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    enum { rate = 48000, slice = 480, slices = 6000 };
    float *loop[2];
    for (int c = 0; c < 2; c++) {
        loop[c] = malloc(sizeof(float) * rate);
        for (int i = 0; i < rate; i++) loop[c][i] = 0.1f * sinf(2 * (float)M_PI * 440 * i / rate);
    }
    static float mix[2][slice];
    int counts[] = {1, 8, 32};
    for (int k = 0; k < 3; k++) {
        int n = counts[k];
        int *position = calloc(n, sizeof(int));
        volatile float sink = 0;
        double start = threadCPU();
        for (int s = 0; s < slices; s++) {
            memset(mix, 0, sizeof(mix));
            for (int p = 0; p < n; p++) {
                float gain = 1.0f / n;
                /* In runs up to the loop's end, so the compiler vectorizes the adds (as ours are). */
                for (int done = 0; done < slice;) {
                    int at = position[p], run = slice - done < rate - at ? slice - done : rate - at;
                    for (int c = 0; c < 2; c++) {
                        const float *restrict from = loop[c] + at;
                        float *restrict to = mix[c] + done;
                        for (int f = 0; f < run; f++) to[f] += from[f] * gain;
                    }
                    done += run;
                    position[p] = (at + run) % rate;
                }
            }
            sink += mix[0][s % slice];
        }
        double cpu = threadCPU() - start;
        printf("floor, %2d buffers added by hand in C: %.3f ms CPU per second of audio\n", n, cpu * 1000 / (slices * slice / (double)rate));
        free(position);
    }
    return 0;
}
