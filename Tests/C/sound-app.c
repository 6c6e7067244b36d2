/*
 * An app that plays system sounds (SPEC §19 SO6), as games do.
 *
 *   sound-app play DIR COUNT   writes DIR/click.wav (0.8 s of 880 Hz at -6 dBFS) and plays it COUNT
 *                              times, 2 s apart, printing "played N" and "completed N"
 *   sound-app checks DIR       bad input, completion, silence with the switch on and during a call
 *                              (run with AUDIOSESSION_RENDER_DIR: the simulated iPhone)
 */
#include <AudioSessionServices.h>
#include <SystemSoundServices.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static atomic_int completions;

static void completed(SystemSoundID id, void *clientData) {
    (void)clientData;
    int count = atomic_fetch_add(&completions, 1) + 1;
    printf("completed %d (sound %u)\n", count, (unsigned)id);
    fflush(stdout);
}

/* Apple's pattern for a sound played once: its completion removes itself and disposes the sound. */
static atomic_int disposedInCompletion = 1;
static void disposeWhenDone(SystemSoundID id, void *clientData) {
    (void)clientData;
    AudioServicesRemoveSystemSoundCompletion(id);
    atomic_store(&disposedInCompletion, (int)AudioServicesDisposeSystemSoundID(id));
    completed(id, NULL);
}

static void put32(FILE *file, UInt32 value) { fwrite(&value, 4, 1, file); }
static void put16(FILE *file, UInt16 value) { fwrite(&value, 2, 1, file); }

/* A 16-bit mono WAV: `seconds` of `frequency` Hz at `amplitude` (0: silence). */
static void writeWAV(const char *path, double seconds, double frequency, double amplitude, UInt32 rate) {
    FILE *file = fopen(path, "wb");
    UInt32 frames = (UInt32)(seconds * rate);
    fwrite("RIFF", 1, 4, file);
    put32(file, 36 + frames * 2);
    fwrite("WAVEfmt ", 1, 8, file);
    put32(file, 16);
    put16(file, 1);
    put16(file, 1);
    put32(file, rate);
    put32(file, rate * 2);
    put16(file, 2);
    put16(file, 16);
    fwrite("data", 1, 4, file);
    put32(file, frames * 2);
    for (UInt32 i = 0; i < frames; i++) put16(file, (UInt16)(SInt16)lrint(amplitude * 32767 * sin(2 * M_PI * frequency * i / rate)));
    fclose(file);
}

static int waitForCompletions(int count) {
    for (int i = 0; i < 500 && atomic_load(&completions) < count; i++) usleep(10000);
    return atomic_load(&completions) >= count;
}

/* The bytes of this app's system sounds on the simulated device: every port's file (the route is
 * wherever the device's earlier programs left it), -1 when there is none. */
static long renderedBytes(void) {
    const char *directory = getenv("AUDIOSESSION_RENDER_DIR"), *app = getenv("AUDIOSESSION_APP_ID");
    char prefix[512], path[4096];
    snprintf(prefix, sizeof(prefix), "%s.system-sound.", app ? app : "");
    DIR *dir = directory ? opendir(directory) : NULL;
    if (!dir) return -1;
    long total = -1;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0) continue;
        snprintf(path, sizeof(path), "%s/%s", directory, entry->d_name);
        struct stat info;
        if (stat(path, &info) == 0) total = (total < 0 ? 0 : total) + (long)info.st_size;
    }
    closedir(dir);
    return total;
}

static int play(const char *directory, int count) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/click.wav", directory);
    writeWAV(path, 0.8, 880, 0.5, 48000);
    SystemSoundID sound = 0;
    EXPECT(AudioServicesCreateSystemSoundID(path, &sound) == 0, "AudioServicesCreateSystemSoundID");
    EXPECT(AudioServicesAddSystemSoundCompletion(sound, NULL, NULL, completed, NULL) == 0, "completion");
    for (int i = 1; i <= count; i++) {
        AudioServicesPlaySystemSound(sound);
        printf("played %d\n", i);
        fflush(stdout);
        EXPECT(waitForCompletions(i), "completed");
        sleep(2);
    }
    EXPECT(AudioServicesDisposeSystemSoundID(sound) == 0, "disposed");
    return failures ? 1 : 0;
}

static int checks(const char *directory) {
    char tone[4096], text[4096], longSound[4096];
    snprintf(tone, sizeof(tone), "%s/tone.wav", directory);
    snprintf(text, sizeof(text), "%s/notes.txt", directory);
    snprintf(longSound, sizeof(longSound), "%s/long.wav", directory);
    writeWAV(tone, 0.3, 880, 0.5, 48000);
    writeWAV(longSound, 31, 0, 0, 8000);
    FILE *file = fopen(text, "w");
    fputs("not a sound\n", file);
    fclose(file);

    SystemSoundID sound = 0;
    EXPECT_STATUS(AudioServicesCreateSystemSoundID("/nonexistent/click.wav", &sound), kAudio_FileNotFoundError,
                  "a missing file");
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(text, &sound), kAudioServicesSystemSoundUnspecifiedError,
                  "a file that is no sound");
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(longSound, &sound), kAudioServicesSystemSoundExceededMaximumDurationError,
                  "a 31 s sound is refused");
    EXPECT_STATUS(AudioServicesCreateSystemSoundID(tone, NULL), kAudio_ParamError, "no place for the id");
    EXPECT(sound == 0, "nothing made of bad input");

    EXPECT(AudioServicesCreateSystemSoundID(tone, &sound) == 0 && sound != 0, "a system sound");
    EXPECT(AudioServicesAddSystemSoundCompletion(sound, NULL, NULL, completed, NULL) == 0, "its completion");
    EXPECT_STATUS(AudioServicesAddSystemSoundCompletion(sound + 100, NULL, NULL, completed, NULL), kAudio_ParamError,
                  "a completion for no sound");
    /* Played: heard on the simulated device's speaker, in a file of its own, and completed. */
    AudioServicesPlaySystemSound(sound);
    EXPECT(waitForCompletions(1), "completed after playing");
    long played = renderedBytes();
    printf("rendered %ld bytes of system sounds\n", played);
    EXPECT(played > 0.25 * 48000 * 4, "the sound was played on the device's output");

    /* The silent switch on: silent, completed all the same. */
    EXPECT(AudioSessionSimulateSystemEvent("silent on") == 0, "silent switch on");
    AudioServicesPlayAlertSound(sound);
    EXPECT(waitForCompletions(2), "completed with the switch on");
    usleep(200000);
    EXPECT(renderedBytes() == played, "nothing played with the switch on");
    EXPECT(AudioSessionSimulateSystemEvent("silent off") == 0, "silent switch off");

    /* A system call: silent. */
    EXPECT(AudioSessionSimulateSystemEvent("call begin") == 0, "a call");
    AudioServicesPlaySystemSound(sound);
    EXPECT(waitForCompletions(3), "completed during the call");
    usleep(200000);
    EXPECT(renderedBytes() == played, "nothing played during a call");
    EXPECT(AudioSessionSimulateSystemEvent("call end") == 0, "the call ends");

    /* A completion that disposes its own sound (on the library's thread, from inside its call). */
    SystemSoundID once = 0;
    EXPECT(AudioServicesCreateSystemSoundID(tone, &once) == 0, "a sound played once");
    EXPECT(AudioServicesAddSystemSoundCompletion(once, NULL, NULL, disposeWhenDone, NULL) == 0, "its completion");
    AudioServicesPlaySystemSound(once);
    EXPECT(waitForCompletions(4), "the sound played once completed");
    if (atomic_load(&disposedInCompletion) != 0) printf("   dispose in the completion returned %d\n", atomic_load(&disposedInCompletion));
    EXPECT(atomic_load(&disposedInCompletion) == 0, "disposed in its own completion");
    EXPECT_STATUS(AudioServicesDisposeSystemSoundID(once), kAudio_ParamError, "gone after its completion");

    AudioServicesRemoveSystemSoundCompletion(sound);
    EXPECT(AudioServicesDisposeSystemSoundID(sound) == 0, "disposed");
    EXPECT_STATUS(AudioServicesDisposeSystemSoundID(sound), kAudio_ParamError, "disposed twice");
    AudioServicesPlaySystemSound(sound); /* no sound: nothing, no crash */
    AudioServicesPlaySystemSound(kSystemSoundID_Vibrate);
    if (failures == 0) printf("system sound checks passed\n");
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "play") == 0) return play(argv[2], atoi(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "checks") == 0) return checks(argv[2]);
    fprintf(stderr, "usage: sound-app play DIR COUNT | checks DIR\n");
    return 2;
}
