// The queue screen's observers, in a file of their own: #selector observers, and one removed by
// name when the screen stops following routes.
import AVFoundation

extension EpisodeQueue {
    func observeSession() {
        NotificationCenter.default.addObserver(self, selector: #selector(sessionInterrupted(_:)), name: AVAudioSession.interruptionNotification, object: nil)
        NotificationCenter.default.addObserver(self, selector: #selector(routeChanged(_:)), name: AVAudioSession.routeChangeNotification, object: nil)
    }

    public func stopFollowingRoutes() {
        NotificationCenter.default.removeObserver(self, name: AVAudioSession.routeChangeNotification, object: nil)
    }

    @objc func sessionInterrupted(_ notification: Notification) {
        pausedForInterruption += 1
    }

    @objc func routeChanged(_ notification: Notification) {
        routeChecks += 1
    }
}
