// A view model from a SwiftUI-era app: the class is @MainActor, the handlers take the
// notification as NSNotification (Objective-C's spelling), and a React Native-style bridge
// attribute marks the class. Its observers run on the main queue once fixed.
import AVFoundation

@MainActor
final class InterruptionBanner: NSObject {
    nonisolated(unsafe) private var audioSessionObservers: [NSObjectProtocol] = []

    deinit {
        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0) }
    }

    private(set) var message = ""
    private(set) var interruptions = 0
    var isVisible = false

    override init() {
        super.init()
        audioSessionObservers.append(NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: .main) { [weak self] notification in MainActor.assumeIsolated { self?.interrupted(NSNotification(name: notification.name, object: notification.object, userInfo: notification.userInfo)) } })
    }

    func interrupted(_ notification: NSNotification) {
        guard let raw = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
            let type = AVAudioSession.InterruptionType(rawValue: raw)
        else { return }
        interruptions += 1
        show(type == .began ? "Paused for a call" : "Back")
    }

    func show(_ text: String) {
        message = text
        isVisible = true
    }
}
