// A now-playing controller that stops following route changes while it is paused but keeps
// hearing interruptions: it removes one selector observer by name.
import AVFoundation

public final class NowPlayingController: NSObject {
    private var audioSessionObservers: [(name: Notification.Name, token: NSObjectProtocol)] = []

    public private(set) var log: [String] = []

    public override init() {
        super.init()
        audioSessionObservers.append((AVAudioSession.interruptionNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] notification in self?.interrupted(notification) }))
        audioSessionObservers.append((AVAudioSession.routeChangeNotification, NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { [weak self] notification in self?.routeChanged(notification) }))
    }

    deinit {
        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0.token) }; audioSessionObservers.removeAll()
    }

    public func pause() {
        audioSessionObservers.removeAll { observer in guard observer.name == AVAudioSession.routeChangeNotification else { return false }; NotificationCenter.default.removeObserver(observer.token); return true }
        log.append("paused")
    }

    func interrupted(_ notification: Notification) {
        log.append("interruption")
    }

    func routeChanged(_ notification: Notification) {
        log.append("route change")
    }
}
