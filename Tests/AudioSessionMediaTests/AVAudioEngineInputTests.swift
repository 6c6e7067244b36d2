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
}
