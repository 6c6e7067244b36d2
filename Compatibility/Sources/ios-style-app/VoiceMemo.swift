import AVFoundation

/// A voice-memo screen as iOS apps write it: it records with AVAudioRecorder, plays the memo back
/// with AVAudioPlayer (looping, metered for a level meter), pauses for interruptions through the
/// player's delegate and plays on when the interruption's end says it should.
final class VoiceMemo: NSObject, AVAudioRecorderDelegate, AVAudioPlayerDelegate {
    private var recorder: AVAudioRecorder?
    private(set) var player: AVAudioPlayer?
    private(set) var log: [String] = []
    private(set) var level: Float = -160

    func record(to url: URL, seconds: TimeInterval) throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker])
        try session.setActive(true)
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatLinearPCM),
            AVSampleRateKey: 44100.0,
            AVNumberOfChannelsKey: 1,
            AVLinearPCMBitDepthKey: 16,
            AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
        ]
        recorder = try AVAudioRecorder(url: url, settings: settings)
        recorder?.delegate = self
        recorder?.prepareToRecord()
        if recorder?.record(forDuration: seconds) != true {
            log.append("record refused")
        }
    }

    func play(_ url: URL) throws {
        try AVAudioSession.sharedInstance().setCategory(.playback)
        player = try AVAudioPlayer(contentsOf: url)
        player?.delegate = self
        player?.numberOfLoops = -1
        player?.isMeteringEnabled = true
        player?.prepareToPlay()
        if player?.play() != true {
            log.append("play refused")
        }
    }

    func updateLevel() {
        player?.updateMeters()
        level = player?.averagePower(forChannel: 0) ?? -160
    }

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        log.append("recorded \(flag)")
    }

    func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {
        log.append("player interrupted")
    }

    func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) {
        if flags & Int(AVAudioSession.InterruptionOptions.shouldResume.rawValue) != 0 {
            player.play()
            log.append("player resumed")
        }
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        log.append("finished \(flag)")
    }
}
