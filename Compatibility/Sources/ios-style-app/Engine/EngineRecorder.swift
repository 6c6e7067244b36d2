import AVFoundation

/// A recorder as iOS apps write it with AVAudioEngine: the input through a mixer of its own
/// (silent into the main mixer, so nothing is monitored), a tap on that mixer writing the file.
final class EngineRecorder {
    let engine = AVAudioEngine()
    private let mixer = AVAudioMixerNode()
    private var file: AVAudioFile?

    func record(to url: URL) throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker])
        try session.setActive(true)
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        engine.attach(mixer)
        engine.connect(input, to: mixer, format: format)
        engine.connect(mixer, to: engine.mainMixerNode, format: format)
        mixer.outputVolume = 0
        file = try AVAudioFile(forWriting: url, settings: format.settings)
        mixer.installTap(onBus: 0, bufferSize: 4096, format: mixer.outputFormat(forBus: 0)) { [weak self] buffer, _ in
            try? self?.file?.write(from: buffer)
        }
        try engine.start()
    }

    func stop() -> AVAudioFramePosition {
        mixer.removeTap(onBus: 0)
        engine.stop()
        let length = file?.length ?? 0
        file = nil
        return length
    }
}
