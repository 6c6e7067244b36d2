// `import AVFoundation` on Linux: the audio session part, which is AVFAudio (with Foundation and
// Combine, as Apple's brings them).
@_exported import AVFAudio
