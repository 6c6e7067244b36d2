/* The header's types and constants only: every function is defined in Swift (AudioSessionServices). */
#include "AudioSessionServices.h"
