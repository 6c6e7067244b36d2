/* AudioUnit/AudioOutputUnit.h — as on Apple's systems, a part of AudioUnit/AudioUnit.h, which declares it. */
#include <AudioUnit/AudioUnit.h>
