// The queue screen's observers, in a file of their own: #selector observers, and one removed by
// name when the screen stops following routes.
import AVFoundation

extension EpisodeQueue {
    func observeSession() {
        audioSessionObservers.append((AVAudioSession.interruptionNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] notification in self?.sessionInterrupted(notification) }))
        audioSessionObservers.append((AVAudioSession.routeChangeNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { [weak self] notification in self?.routeChanged(notification) }))
    }

    public func stopFollowingRoutes() {
        audioSessionObservers.removeAll { observer in guard observer.name == AVAudioSession.routeChangeNotification else { return false }; NotificationCenter.default.removeObserver(observer.token); return true }
    }

    func sessionInterrupted(_ notification: Notification) {
        pausedForInterruption += 1
    }

    func routeChanged(_ notification: Notification) {
        routeChecks += 1
    }
}
