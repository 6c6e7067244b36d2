// `import AVFoundation` on Linux: the audio session part, which is AVFAudio.
@_exported import AVFAudio
// Apple's Foundation brings Combine too: an `ObservableObject` with `@Published` properties, an
// `AnyCancellable`, `NotificationCenter.default.publisher(for:)` build with `import AVFoundation`
// alone. Here that is this package's Combine (OpenCombine; its limits in README "Porting iOS code").
@_exported import Combine
