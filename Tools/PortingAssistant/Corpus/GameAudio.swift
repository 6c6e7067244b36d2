// A game's audio set-up, from an engine's iOS layer: the whole controller sits behind
// `#if os(iOS)`, so on Linux it compiled out without a word and the game was silent.
import AVFoundation

#if os(iOS)
public final class GameAudio {
    public private(set) var musicPlaying = false
    public private(set) var interruptions = 0
    private var observer: NSObjectProtocol?

    public init() {}

    public func start() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.ambient, options: [.mixWithOthers])
        try session.setActive(true)
        observer = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { [weak self] _ in
            self?.interruptions += 1
        }
        musicPlaying = true
    }

    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        try? AVAudioSession.sharedInstance().setActive(false)
        musicPlaying = false
    }
}
#endif
