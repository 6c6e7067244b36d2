// A route monitor from an audio library: the observer is added through a stored center, the
// handler takes the notification under a label.
import AVFoundation

public final class RouteMonitor: NSObject {
    private var audioSessionObservers: [NSObjectProtocol] = []

    deinit {
        audioSessionObservers.forEach { center.removeObserver($0) }
    }

    public private(set) var routes: [String] = []
    private let center = NotificationCenter.default

    public override init() {
        super.init()
        audioSessionObservers.append(center.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { [weak self] notification in self?.routeChanged(note: notification) })
    }

    func routeChanged(note: Notification) {
        let outputs = AVAudioSession.sharedInstance().currentRoute.outputs.map { $0.portType.rawValue }
        routes.append(outputs.joined(separator: "+"))
    }

    public func describe() -> String {
        do {
            try AVAudioSession.sharedInstance().setCategory(.ambient)
            return routes.joined(separator: ", ")
        } catch {
            let error = error as NSError
            return "error \(error.code)"
        }
    }
}
