import AVFoundation
import os

/// Unified logging as iOS code writes it: a `Logger` with privacy, and `os_log` with a format.
enum Diagnostics {
    static let logger = Logger(subsystem: "com.example.podcasts", category: "audio")
    static let signposter = OSSignposter(subsystem: "com.example.podcasts", category: "audio")

    static func sessionActivated(category: AVAudioSession.Category, attempt: Int) {
        let state = signposter.beginInterval("activate")
        logger.info("session active: \(category.rawValue, privacy: .public), attempt \(attempt)")
        logger.debug("route \(AVAudioSession.sharedInstance().currentRoute.outputs.count) outputs")
        os_log(
            "activated %{public}@ after %d attempts", log: OSLog(subsystem: "com.example.podcasts", category: "audio"),
            type: .info, category.rawValue, attempt)
        signposter.endInterval("activate", state)
    }
}
