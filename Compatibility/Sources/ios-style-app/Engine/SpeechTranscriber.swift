import AVFoundation

/// A speech recognizer's audio side as iOS apps write it: the microphone tapped, each buffer
/// converted to 16 kHz mono Int16 for the recognizer; it stops on an interruption and starts again
/// after it, and sets its tap up again on a configuration change.
final class SpeechTranscriber {
    let engine = AVAudioEngine()
    private let lock = NSLock()
    private var converted: [Int16] = []
    private(set) var log: [String] = []
    private var observers: [NSObjectProtocol] = []
    private let recognizerFormat = AVAudioFormat(
        commonFormat: .pcmFormatInt16, sampleRate: 16000, channels: 1, interleaved: true)!

    var samples: [Int16] {
        lock.lock()
        defer { lock.unlock() }
        return converted
    }

    func start() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.record, mode: .measurement, options: [])
        try session.setActive(true, options: .notifyOthersOnDeactivation)
        installTap()
        engine.prepare()
        try engine.start()
        observers.append(
            NotificationCenter.default.addObserver(
                forName: AVAudioSession.interruptionNotification, object: session, queue: .main
            ) { [weak self] notification in
                guard let self = self,
                    let value = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
                    let type = AVAudioSession.InterruptionType(rawValue: value)
                else { return }
                switch type {
                case .began:
                    self.log.append("interrupted, running \(self.engine.isRunning)")
                case .ended:
                    do {
                        try self.engine.start()
                        self.log.append("restarted")
                    } catch {
                        self.log.append("restart failed: \(error.localizedDescription)")
                    }
                @unknown default: break
                }
            })
        observers.append(
            NotificationCenter.default.addObserver(
                forName: .AVAudioEngineConfigurationChange, object: engine, queue: .main
            ) { [weak self] _ in
                guard let self = self else { return }
                self.installTap()
                try? self.engine.start()
                self.log.append("reconfigured")
            })
    }

    private func installTap() {
        let input = engine.inputNode
        input.removeTap(onBus: 0)
        let format = input.outputFormat(forBus: 0)
        guard let converter = AVAudioConverter(from: format, to: recognizerFormat) else { return }
        input.installTap(onBus: 0, bufferSize: 1024, format: format) { [weak self] buffer, _ in
            guard let self = self else { return }
            let capacity = AVAudioFrameCount(Double(buffer.frameLength) * 16000 / format.sampleRate) + 1
            guard let output = AVAudioPCMBuffer(pcmFormat: self.recognizerFormat, frameCapacity: capacity) else { return }
            var error: NSError?
            var consumed = false
            let status = converter.convert(to: output, error: &error) { _, outStatus in
                if consumed {
                    outStatus.pointee = .noDataNow
                    return nil
                }
                consumed = true
                outStatus.pointee = .haveData
                return buffer
            }
            guard status != .error, let data = output.int16ChannelData else { return }
            let frames = Array(UnsafeBufferPointer(start: data[0], count: Int(output.frameLength)))
            self.lock.lock()
            self.converted.append(contentsOf: frames)
            self.lock.unlock()
        }
    }

    func stop() {
        engine.stop()
        engine.inputNode.removeTap(onBus: 0)
        observers.forEach { NotificationCenter.default.removeObserver($0) }
        observers.removeAll()
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }
}
