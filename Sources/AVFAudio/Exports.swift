// As on Apple platforms, `import AVFAudio` (and `import AVFoundation`) brings Foundation with it:
// iOS code uses NSError, Notification and NotificationCenter without importing Foundation.
@_exported import Foundation
