import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SPEC §20's input side embedded: the simulated device's microphone (a 440 Hz tone at −12 dBFS)
/// through the engine's input node — a speech recognizer's tap, a recorder's chain, a sink node.
@Suite("AVAudioEngine's input (§20) on the simulated device", .serialized)
struct AVAudioEngineInputTests {
    /// The frequency of a signal from its rising zero crossings.
    static func frequency(_ samples: [Float], rate: Double) -> Double {
        var crossings: [Int] = []
        for index in 1..<max(1, samples.count) where samples[index - 1] < 0 && samples[index] >= 0 { crossings.append(index) }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * rate / Double(last - first)
    }

    /// What a tap heard: buffer sizes, first-frame times, the first channel's samples.
    final class Heard: @unchecked Sendable {
        let state = Mutex<(sizes: [AVAudioFrameCount], times: [AVAudioFramePosition], samples: [Float])>(([], [], []))
        func add(_ buffer: AVAudioPCMBuffer, _ time: AVAudioTime) {
            let samples = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
            state.withLock {
                $0.sizes.append(buffer.frameLength)
                $0.times.append(time.sampleTime)
                $0.samples += samples
            }
        }
        var count: Int { state.withLock { $0.sizes.count } }
    }

    @Test(
        "EN3, EN4, EN5: a speech recognizer's tap on the input node in .record: the microphone's tone at its frequency and level, in buffers of the size asked with increasing sample times; input alone starts (no output)"
    )
    func speechTap() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.speech"))
        try session.setCategory(.record)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let format = engine.inputNode.outputFormat(forBus: 0)
        #expect(format.sampleRate == 48_000 && format.channelCount == 1, "\(format)")
        let heard = Heard()
        engine.inputNode.installTap(onBus: 0, bufferSize: 1_024, format: format) { buffer, time in heard.add(buffer, time) }
        try engine.start()
        #expect(engine.isRunning)
        let status = try session.session.status()
        #expect(status.isInputRunning && !status.isOutputRunning, "input alone: \(status)")
        #expect(eventually { heard.count >= 20 })
        engine.stop()
        #expect((try? session.session.status().isInputRunning) == false)
        let (sizes, times, samples) = heard.state.withLock { ($0.sizes, $0.times, $0.samples) }
        #expect(sizes.allSatisfy { $0 == 1_024 }, "\(sizes)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 == $0 + 1_024 }, "\(times)")
        let steady = Array(samples.dropFirst(2_048))
        #expect(abs(Self.frequency(steady, rate: 48_000) - 440) < 2, "\(Self.frequency(steady, rate: 48_000)) Hz")
        let peak = steady.map(abs).max() ?? 0
        #expect(abs(peak - 0.25) < 0.01, "peak \(peak): the simulated microphone's −12 dBFS")
    }

    @Test("EN3: the recorders' chain, input → main mixer → output in .playAndRecord: the tone reaches the output at its level")
    func inputThroughTheMixer() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.loop"))
        try session.setCategory(.playAndRecord)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let input = engine.inputNode
        engine.connect(input, to: engine.mainMixerNode, format: input.outputFormat(forBus: 0))
        try engine.start()
        let status = try session.session.status()
        #expect(status.isInputRunning && status.isOutputRunning)
        Thread.sleep(forTimeInterval: 0.5)
        engine.stop()
        let rendered = try fixture.rendered("engine.loop", port: "built-in-receiver")
        let samples = Array(rendered.samples.dropFirst(4_800))
        #expect(abs(AVAudioEngineTests.frequency(rendered) - 440) < 3, "\(AVAudioEngineTests.frequency(rendered)) Hz")
        #expect(abs((samples.map(abs).max() ?? 0) - 0.25) < 0.01)
    }

    @Test("EN4: a sink node connected to the input node receives the microphone's frames on the render thread")
    func sinkNode() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.sink"))
        try session.setCategory(.record)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let received = Mutex((frames: 0, peak: Float(0)))
        let sink = AVAudioSinkNode { _, frames, list in
            let samples = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))[0].mData!
                .assumingMemoryBound(to: Float.self)
            let peak = (0..<Int(frames)).map { abs(samples[$0]) }.max() ?? 0
            received.withLock { $0 = ($0.frames + Int(frames), max($0.peak, peak)) }
            return 0
        }
        engine.attach(sink)
        engine.connect(engine.inputNode, to: sink, format: nil)
        try engine.start()
        #expect(eventually { received.withLock { $0.frames } > 9_600 })
        engine.stop()
        #expect(abs(received.withLock { $0.peak } - 0.25) < 0.01, "\(received.withLock { $0 })")
    }

    @Test(
        "EN7: a Bluetooth HFP headset (16 kHz) under running engines: AVAudioEngineConfigurationChange off the main queue, both stopped; the output-only graph started again plays on; the input chain in the old format throws at start() naming both formats, and after reconnecting records again"
    )
    func configurationChange() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.hfp"))
        try session.setCategory(.playAndRecord, options: [.allowBluetooth, .mixWithOthers])
        let player = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let node = AVAudioPlayerNode()
        player.attach(node)
        let buffer = AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 0.5)
        player.connect(node, to: player.mainMixerNode, format: buffer.format)
        node.scheduleBuffer(buffer, at: nil, options: .loops)
        let recorder = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let mixer = AVAudioMixerNode()
        recorder.attach(mixer)
        recorder.connect(recorder.inputNode, to: mixer, format: recorder.inputNode.outputFormat(forBus: 0))
        let heard = Heard()
        mixer.installTap(onBus: 0, bufferSize: 1_600, format: nil) { buffer, time in heard.add(buffer, time) }
        let changes = Mutex<[(engine: ObjectIdentifier, main: Bool)]>([])
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: nil, queue: nil)
        {
            note in
            guard let engine = note.object as? AVAudioEngine else { return }
            changes.withLock { $0.append((ObjectIdentifier(engine), Thread.isMainThread)) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try player.start()
        node.play()
        try recorder.start()
        #expect(eventually { heard.count >= 3 })
        #expect(recorder.inputNode.outputFormat(forBus: 0).sampleRate == 48_000)

        fixture.system(.plug(.bluetoothHFP, uid: "hfp"))
        #expect(eventually { changes.withLock { $0.count } == 2 }, "\(changes.withLock { $0.count }) changes posted")
        #expect(changes.withLock { $0 }.allSatisfy { !$0.main }, "off the main queue")
        #expect(!player.isRunning && !recorder.isRunning, "both stopped")
        #expect(session.sampleRate == 16_000, "\(session.sampleRate)")

        // Output only: started again, it plays on (the output node converts).
        try player.start()
        #expect(player.isRunning && node.isPlaying)
        #expect(eventually { ((try? fixture.rendered("engine.hfp", port: "hfp"))?.frames ?? 0) > 3_200 }, "heard on the headset")
        player.stop()

        // The input chain in the old format: start() throws, naming both formats.
        var message = ""
        do { try recorder.start() } catch { message = (error as NSError).localizedDescription }
        #expect(message.contains("48000") && message.contains("16000"), "\(message)")
        #expect(!recorder.isRunning)
        recorder.connect(recorder.inputNode, to: mixer, format: recorder.inputNode.outputFormat(forBus: 0))
        let before = heard.count
        try recorder.start()
        #expect(eventually { heard.count >= before + 3 }, "records again")
        recorder.stop()
        let rendered = try fixture.rendered("engine.hfp", port: "hfp")
        #expect(
            rendered.sampleRate == 16_000 && abs(AVAudioEngineTests.frequency(rendered) - 440) < 3,
            "\(rendered.sampleRate) Hz file")
    }
}
