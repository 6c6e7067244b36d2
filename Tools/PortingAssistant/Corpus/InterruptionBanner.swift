// A view model from a SwiftUI-era app: the class is @MainActor, the handlers take the
// notification as NSNotification (Objective-C's spelling), and a React Native-style bridge
// attribute marks the class. Its observers run on the main queue once fixed.
import AVFoundation

@MainActor
@objcMembers
final class InterruptionBanner: NSObject {
    private(set) var message = ""
    private(set) var interruptions = 0
    dynamic var isVisible = false

    override init() {
        super.init()
        NotificationCenter.default.addObserver(self, selector: #selector(interrupted(_:)), name: AVAudioSession.interruptionNotification, object: nil)
    }

    @objc func interrupted(_ notification: NSNotification) {
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
