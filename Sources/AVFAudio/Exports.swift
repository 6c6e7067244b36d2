// Apple's Foundation brings Combine: an `ObservableObject` with `@Published` properties, an
// `AnyCancellable`, `NotificationCenter.default.publisher(for:)` build with `import AVFAudio`
// alone. Here that is this package's Combine (OpenCombine; its limits in README "Porting iOS code").
@_exported import Combine
// As on Apple platforms, `import AVFAudio` (and `import AVFoundation`) brings Foundation with it:
// iOS code uses NSError, Notification and NotificationCenter without importing Foundation.
@_exported import Foundation
