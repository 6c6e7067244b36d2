import AVFoundation

/// A metronome as iOS apps write it: one beat's buffer (a short click, then silence) scheduled
/// once with `.loops` on a player node; the tempo is the buffer's length.
final class Metronome {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()

    func start(bpm: Double) throws {
        try AVAudioSession.sharedInstance().setCategory(.playback, options: .mixWithOthers)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        let frames = AVAudioFrameCount(48000 * 60 / bpm)
        let beat = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        beat.frameLength = frames
        let click = Int(0.01 * 48000)
        for frame in 0..<Int(frames) {
            beat.floatChannelData![0][frame] = frame < click ? 0.5 * sin(2 * .pi * 1000 * Float(frame) / 48000) : 0
        }
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        player.scheduleBuffer(beat, at: nil, options: .loops, completionHandler: nil)
        try engine.start()
        player.play()
    }

    func stop() {
        player.stop()
        engine.stop()
    }
}
