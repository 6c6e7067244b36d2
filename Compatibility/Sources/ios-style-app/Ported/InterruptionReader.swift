// An interruption handler from a React Native module's Swift side: it reads the session's
// numbers the Objective-C way, through NSValue, which traps on Linux.
import AVFoundation

public final class InterruptionReader {
    public private(set) var events: [String] = []
    private var token: NSObjectProtocol?

    public init() {
        token = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] notification in
            self?.handle(notification)
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    func handle(_ notification: Notification) {
        guard let info = notification.userInfo else { return }
        var typeValue: UInt = 0
        if let value = info[AVAudioSessionInterruptionTypeKey] as? UInt { typeValue = numericCast(value) }
        var options: AVAudioSession.InterruptionOptions.RawValue = 0
        var type: AVAudioSession.InterruptionType = .ended
        if let value = info[AVAudioSessionInterruptionTypeKey] as? UInt, let typed = AVAudioSession.InterruptionType(rawValue: numericCast(value)) { type = typed }
        if type == .ended, info[AVAudioSessionInterruptionOptionKey] != nil {
            if let value = info[AVAudioSessionInterruptionOptionKey] as? UInt { options = numericCast(value) }
        }
        let resume = AVAudioSession.InterruptionOptions(rawValue: options).contains(.shouldResume)
        events.append(typeValue == 1 ? "began" : (resume ? "ended, resume" : "ended"))
    }
}
