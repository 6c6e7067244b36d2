// A route monitor from an audio library: the observer is added through a stored center, the
// handler takes the notification under a label.
import AVFoundation

public final class RouteMonitor: NSObject {
    public private(set) var routes: [String] = []
    private let center = NotificationCenter.default

    public override init() {
        super.init()
        center.addObserver(self, selector: #selector(RouteMonitor.routeChanged(note:)), name: AVAudioSession.routeChangeNotification, object: nil)
    }

    @objc func routeChanged(note: Notification) {
        let outputs = AVAudioSession.sharedInstance().currentRoute.outputs.map { $0.portType.rawValue }
        routes.append(outputs.joined(separator: "+"))
    }

    public func describe() -> String {
        do {
            try AVAudioSession.sharedInstance().setCategory(.ambient)
            return routes.joined(separator: ", ")
        } catch let error as NSError {
            return "error \(error.code)"
        }
    }
}
