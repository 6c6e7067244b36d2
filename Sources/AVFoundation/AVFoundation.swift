// `import AVFoundation` on Linux: the audio session part, which is AVFAudio.
@_exported import AVFAudio
