// `import AVFoundation` on Linux: the audio session part, which is AVFAudio (with Foundation and
// Combine, as Apple's brings them), and CoreMedia's time, as Apple's AVFoundation brings it.
@_exported import AVFAudio
@_exported import CoreMedia
