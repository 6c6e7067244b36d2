// A playback screen's notification plumbing, kept in an extension as many apps organize it: the
// class holds the state; the extension registers #selector observers and, when the screen stops
// caring about routes, removes that one observer by name.
import AVFoundation

public final class TrackObserver: NSObject {
    private var audioSessionObservers: [(name: Notification.Name, token: NSObjectProtocol)] = []

    deinit {
        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0.token) }
    }

    public private(set) var interruptions = 0
    public private(set) var routeChanges = 0

    public override init() {
        super.init()
        startObserving()
    }
}

extension TrackObserver {
    func startObserving() {
        audioSessionObservers.append((AVAudioSession.interruptionNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] notification in self?.handleInterruption(notification) }))
        audioSessionObservers.append((AVAudioSession.routeChangeNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { [weak self] notification in self?.handleRouteChange(notification) }))
    }

    public func stopObservingRoutes() {
        audioSessionObservers.removeAll { observer in guard observer.name == AVAudioSession.routeChangeNotification else { return false }; NotificationCenter.default.removeObserver(observer.token); return true }
    }

    func handleInterruption(_ notification: Notification) {
        interruptions += 1
    }

    func handleRouteChange(_ notification: Notification) {
        routeChanges += 1
    }
}
