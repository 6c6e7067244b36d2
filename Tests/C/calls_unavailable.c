/* Must not compile (issue 29): a call to a function of Apple's audio APIs that this system does
 * not implement fails at compile time with a reason naming the alternative, not at link time.
 * scripts/test compiles it with -DAUDIO_FILE and -DCONVERTER and checks each error. (Audio Queue
 * Services and the I/O units are offered since SO4 and SO5.) */
#include <AudioToolbox/AudioToolbox.h>
#include <AudioToolbox/AudioConverter.h>
#include <stddef.h>

int main(void) {
#if defined(AUDIO_FILE)
    return (int)AudioFileClose(NULL);
#else
    return (int)AudioConverterDispose(NULL);
#endif
}
