/*
 * AudioToolbox/Unavailable.h — how this system marks Apple's audio APIs it does not implement:
 * their types and constants are declared, so code that includes the header (and code that only
 * names the types) builds; a call fails at compile time with a reason and the alternative,
 * not at link time with an undefined symbol.
 */
#ifndef AudioToolbox_Unavailable_h
#define AudioToolbox_Unavailable_h

#define AUDIOSESSION_NOT_OFFERED(what, instead)                                                     \
    __attribute__((unavailable(what " on Linux by the audiosession system: " instead                \
                               " (README, \"Porting iOS code\")")))

#endif /* AudioToolbox_Unavailable_h */
