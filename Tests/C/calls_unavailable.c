/* Must not compile (issue 29): a call to a function of Apple's audio APIs that this system does
 * not implement fails at compile time with a reason naming the alternative, not at link time.
 * scripts/test compiles it with -DAUDIO_FILE and checks the error. (Audio Queue Services and the
 * I/O units are offered since SO4 and SO5, Audio Converter Services and the converter unit since SO9.) */
#include <AudioToolbox/AudioToolbox.h>
#include <stddef.h>

int main(void) {
#if defined(AUDIO_FILE)
    return (int)AudioFileClose(NULL);
#else
    return 0;
#endif
}
