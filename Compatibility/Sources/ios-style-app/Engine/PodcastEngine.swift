import AVFoundation

/// A podcast player's engine as iOS apps write it: the episode scheduled as a file on a player
/// node, sped up with AVAudioUnitTimePitch (1.5×, the voice's pitch kept); after an interruption
/// that says it should resume, the engine is started again and the player plays on.
final class PodcastEngine {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let timePitch = AVAudioUnitTimePitch()
    private(set) var log: [String] = []
    private(set) var finished = false
    private var observer: NSObjectProtocol?

    func play(_ url: URL, rate: Float) throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback, mode: .spokenAudio, options: [])
        try session.setActive(true)
        let file = try AVAudioFile(forReading: url)
        engine.attach(player)
        engine.attach(timePitch)
        engine.connect(player, to: timePitch, format: file.processingFormat)
        engine.connect(timePitch, to: engine.mainMixerNode, format: file.processingFormat)
        timePitch.rate = rate
        player.scheduleFile(file, at: nil) { [weak self] in self?.finished = true }
        observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.interruptionNotification, object: session, queue: .main
        ) { [weak self] notification in
            guard let self = self, let info = notification.userInfo,
                let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
                let type = AVAudioSession.InterruptionType(rawValue: typeValue)
            else { return }
            if type == .began {
                self.log.append("began")
            } else if let optionsValue = info[AVAudioSessionInterruptionOptionKey] as? UInt,
                AVAudioSession.InterruptionOptions(rawValue: optionsValue).contains(.shouldResume)
            {
                try? self.engine.start()
                self.player.play()
                self.log.append("resumed")
            }
        }
        try engine.start()
        player.play()
    }

    /// Seconds of the episode played so far (the player's time).
    var position: Double {
        guard let nodeTime = player.lastRenderTime, let playerTime = player.playerTime(forNodeTime: nodeTime) else { return 0 }
        return Double(playerTime.sampleTime) / playerTime.sampleRate
    }

    func stop() {
        player.stop()
        engine.stop()
        if let observer = observer { NotificationCenter.default.removeObserver(observer) }
    }
}
