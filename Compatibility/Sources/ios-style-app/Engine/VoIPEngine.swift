import AVFoundation

/// A VoIP call's audio as iOS SDKs write it with AVAudioEngine: voice processing on the input
/// node, the microphone tapped for the network, the far end's audio played by a player node.
final class VoIPEngine {
    let engine = AVAudioEngine()
    let farEnd = AVAudioPlayerNode()
    private let lock = NSLock()
    private var sent = 0
    private(set) var log: [String] = []

    var framesSent: Int {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    func start() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetooth])
        try session.setActive(true)
        try engine.inputNode.setVoiceProcessingEnabled(true)
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        input.installTap(onBus: 0, bufferSize: 960, format: format) { [weak self] buffer, _ in
            guard let self = self else { return }
            self.lock.lock()
            self.sent += Int(buffer.frameLength)
            self.lock.unlock()
        }
        engine.attach(farEnd)
        engine.connect(farEnd, to: engine.mainMixerNode, format: format)
        try engine.start()
        farEnd.play()
        log.append("voice processing \(engine.inputNode.isVoiceProcessingEnabled)")
    }

    /// A packet of the far end's audio, as the network delivers it.
    func receive(_ buffer: AVAudioPCMBuffer) { farEnd.scheduleBuffer(buffer, completionHandler: nil) }

    func end() {
        engine.inputNode.removeTap(onBus: 0)
        engine.stop()
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }
}
