// A playback screen's notification plumbing, kept in an extension as many apps organize it: the
// class holds the state; the extension registers #selector observers and, when the screen stops
// caring about routes, removes that one observer by name.
import AVFoundation

public final class TrackObserver: NSObject {
    public private(set) var interruptions = 0
    public private(set) var routeChanges = 0

    public override init() {
        super.init()
        startObserving()
    }
}

extension TrackObserver {
    func startObserving() {
        NotificationCenter.default.addObserver(self, selector: #selector(handleInterruption(_:)), name: AVAudioSession.interruptionNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(handleRouteChange(_:)), name: AVAudioSession.routeChangeNotification, object: nil)
    }

    public func stopObservingRoutes() {
        NotificationCenter.default.removeObserver(self, name: AVAudioSession.routeChangeNotification, object: nil)
    }

    @objc func handleInterruption(_ notification: Notification) {
        interruptions += 1
    }

    @objc func handleRouteChange(_ notification: Notification) {
        routeChanges += 1
    }
}
