// A now-playing controller that stops following route changes while it is paused but keeps
// hearing interruptions: it removes one selector observer by name.
import AVFoundation

public final class NowPlayingController: NSObject {
    public private(set) var log: [String] = []

    public override init() {
        super.init()
        NotificationCenter.default.addObserver(self, selector: #selector(interrupted(_:)), name: AVAudioSession.interruptionNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(routeChanged(_:)), name: AVAudioSession.routeChangeNotification, object: nil)
    }

    deinit {
        NotificationCenter.default.removeObserver(self)
    }

    public func pause() {
        NotificationCenter.default.removeObserver(self, name: AVAudioSession.routeChangeNotification, object: nil)
        log.append("paused")
    }

    @objc func interrupted(_ notification: Notification) {
        log.append("interruption")
    }

    @objc func routeChanged(_ notification: Notification) {
        log.append("route change")
    }
}
