// The endpoint, sound files and the level meter are part of this module's API, as they were
// before they moved to the path beneath it (AudioSessionSound, shared with the C library).
@_exported import AudioSessionSound
