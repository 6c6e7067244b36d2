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
        (info[AVAudioSessionInterruptionTypeKey] as! NSValue).getValue(&typeValue)
        var options: AVAudioSession.InterruptionOptions.RawValue = 0
        var type: AVAudioSession.InterruptionType = .ended
        (info[AVAudioSessionInterruptionTypeKey] as? NSValue)?.getValue(&type)
        if type == .ended, info[AVAudioSessionInterruptionOptionKey] != nil {
            (info[AVAudioSessionInterruptionOptionKey] as! NSValue).getValue(&options)
        }
        let resume = AVAudioSession.InterruptionOptions(rawValue: options).contains(.shouldResume)
        events.append(typeValue == 1 ? "began" : (resume ? "ended, resume" : "ended"))
    }
}
