// An iOS podcast player's audio session handling, as written for iOS: selector observers with
// @objc handlers, removed in deinit, an NSError catch as the last clause, and the UIKit import
// Xcode's template puts in every file (nothing of UIKit used).
import AVFoundation
import UIKit

final class PodcastPlayer: NSObject {
    private(set) var isPlaying = false
    private(set) var log: [String] = []

    override init() {
        super.init()
        let session = AVAudioSession.sharedInstance()
        NotificationCenter.default.addObserver(self, selector: #selector(handleInterruption(_:)), name: AVAudioSession.interruptionNotification, object: session)
        NotificationCenter.default.addObserver(self, selector: #selector(handleRouteChange(_:)), name: AVAudioSession.routeChangeNotification, object: session)
    }

    deinit {
        NotificationCenter.default.removeObserver(self)
    }

    func play() {
        do {
            try AVAudioSession.sharedInstance().setCategory(.playback, mode: .spokenAudio, policy: .longFormAudio, options: [])
            try AVAudioSession.sharedInstance().setActive(true)
            isPlaying = true
        } catch let error as NSError {
            log.append("cannot play: \(error.code)")
        }
    }

    @objc func handleInterruption(_ notification: Notification) {
        guard let info = notification.userInfo,
            let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
            let type = AVAudioSession.InterruptionType(rawValue: typeValue)
        else { return }
        switch type {
        case .began:
            isPlaying = false
            log.append("interrupted")
        case .ended:
            let options = AVAudioSession.InterruptionOptions(rawValue: info[AVAudioSessionInterruptionOptionKey] as? UInt ?? 0)
            if options.contains(.shouldResume) { play() }
        @unknown default:
            break
        }
    }

    @objc private func handleRouteChange(_ notification: Notification) {
        guard let value = notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt,
            AVAudioSession.RouteChangeReason(rawValue: value) == .oldDeviceUnavailable
        else { return }
        isPlaying = false
        log.append("paused: headphones gone")
    }
}
