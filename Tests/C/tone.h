/* The tests' one measure of a tone: the power at one frequency of 16-bit samples (Goertzel). */
#ifndef TONE_H
#define TONE_H
#include <math.h>

static inline double tone_power16(const short *samples, int count, double frequency, double rate) {
    double coefficient = 2 * cos(2 * M_PI * frequency / rate), previous = 0, before = 0;
    for (int i = 0; i < count; i++) {
        double current = samples[i] / 32768.0 + coefficient * previous - before;
        before = previous;
        previous = current;
    }
    return previous * previous + before * before - coefficient * previous * before;
}

#endif
