import AVFAudio

/// A call screen's mute button (iOS 17's per-app input mute). Nothing here is iOS-only syntax the
/// assistant could fix or name, and yet it does not build on Linux: AVAudioApplication's input
/// mute is not offered (the device's microphone mute is). `audiosession port` must say so.
final class MuteButton {
    private(set) var isMuted = false

    func toggle() throws {
        isMuted.toggle()
        try AVAudioApplication.shared.setInputMuted(isMuted)
    }
}
