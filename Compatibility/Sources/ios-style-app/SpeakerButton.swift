import AVKit

/// A file that imports AVKit only for the session (a speaker button of a call screen), as many
/// iOS files do; builds unchanged: `import AVKit` re-exports AVFoundation's session API here.
enum SpeakerButton {
    static func toggle(on: Bool) throws {
        let session = AVAudioSession.sharedInstance()
        try session.overrideOutputAudioPort(on ? .speaker : .none)
    }

    static var isOnSpeaker: Bool {
        AVAudioSession.sharedInstance().currentRoute.outputs.first?.portType == .builtInSpeaker
    }
}
