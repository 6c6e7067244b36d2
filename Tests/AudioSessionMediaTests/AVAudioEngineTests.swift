import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SPEC §20 embedded: AVAudioEngine's graph rendered by the simulated device (the speaker's file,
/// times the session's gain), measured: level, frequency, what the session sees.
@Suite("AVAudioEngine (§20) on the simulated device", .serialized)
struct AVAudioEngineTests {
    /// A mono or stereo sine in a PCM buffer.
    static func sine(
        _ frequency: Double, amplitude: Float, seconds: Double, rate: Double = 48_000, channels: AVAudioChannelCount = 1
    ) -> AVAudioPCMBuffer {
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels)!
        let frames = AVAudioFrameCount(seconds * rate)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<Int(channels) {
            let samples = buffer.floatChannelData![channel]
            for frame in 0..<Int(frames) {
                samples[frame] = amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / rate))
            }
        }
        return buffer
    }

    /// The frequency of a channel's signal from its rising zero crossings.
    static func frequency(_ rendered: SampleBuffer, channel: Int = 0) -> Double {
        let samples = stride(from: channel, to: rendered.samples.count, by: rendered.channels).map { rendered.samples[$0] }
        let loud = samples.drop { abs($0) < 0.01 }.reversed().drop { abs($0) < 0.01 }.reversed()
        var crossings: [Int] = []
        var previous: Float = 0
        for (index, sample) in loud.enumerated() {
            if previous < 0 && sample >= 0 { crossings.append(index) }
            previous = sample
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rendered.sampleRate) / Double(last - first)
    }

    /// A channel's level over its loud part (dBFS).
    static func level(_ rendered: SampleBuffer, channel: Int = 0) -> Double {
        let samples = stride(from: channel, to: rendered.samples.count, by: rendered.channels).map { rendered.samples[$0] }
        let loud = Array(samples.drop { abs($0) < 0.01 }.reversed().drop { abs($0) < 0.01 }.reversed())
        return Level.dBFS(loud[...])
    }

    @Test(
        "EN4, EN5: a player node's buffer through the main mixer is heard at its level and frequency; start() activates the session (IO1); the completion handler is called; stop() leaves the output stopped"
    )
    func playerNodeIsHeard() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let buffer = Self.sine(440, amplitude: 0.5, seconds: 0.5)
        engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
        let done = Mutex(0)
        player.scheduleBuffer(buffer) { done.withLock { $0 += 1 } }
        try engine.start()
        #expect(engine.isRunning)
        #expect(session.session.isActive, "IO1: start() activates the session")
        player.play()
        #expect(player.isPlaying)
        #expect(eventually { done.withLock { $0 } == 1 }, "the completion handler")
        Thread.sleep(forTimeInterval: 0.1)
        engine.stop()
        #expect(!engine.isRunning)
        #expect((try? session.session.status().isOutputRunning) == false, "stop() stops the session's output")
        let rendered = try fixture.rendered("engine", port: "built-in-speaker")
        #expect(abs(Self.frequency(rendered) - 440) < 2, "\(Self.frequency(rendered)) Hz")
        // Mono into the stereo main mixer, into the iPhone's mono speaker: at its level.
        #expect(rendered.channels == 1, "the iPhone's speaker is mono")
        #expect(abs(Self.level(rendered) - 20 * log10(0.5)) < 0.5, "\(Self.level(rendered)) dBFS")
    }

    @Test(
        "EN3: a buffer at 44.1 kHz into the mixer at the route's 48 kHz is converted: 440 Hz on the output; a mixer's volume and a source's pan reach each channel"
    )
    func conversionVolumeAndPan() throws {
        let fixture = try MediaFixture(profile: .ipad)  // a stereo speaker
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.pan"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let buffer = Self.sine(440, amplitude: 0.5, seconds: 0.5, rate: 44_100, channels: 2)
        engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
        engine.mainMixerNode.outputVolume = 0.5
        player.pan = -1  // a stereo source panned hard left: the right side silent
        let done = Mutex(false)
        player.scheduleBuffer(buffer) { done.withLock { $0 = true } }
        player.play()
        try engine.start()
        #expect(eventually { done.withLock { $0 } })
        Thread.sleep(forTimeInterval: 0.1)
        engine.stop()
        let rendered = try fixture.rendered("engine.pan", port: "built-in-speaker")
        #expect(rendered.sampleRate == 48_000 && rendered.channels == 2)
        #expect(abs(Self.frequency(rendered) - 440) < 2, "\(Self.frequency(rendered)) Hz")
        #expect(abs(Self.level(rendered, channel: 0) - 20 * log10(0.25)) < 0.5, "left \(Self.level(rendered, channel: 0)) dBFS")
        let right = stride(from: 1, to: rendered.samples.count, by: 2).map { abs(rendered.samples[$0]) }.max() ?? 1
        #expect(right < 0.001, "right peak \(right)")
    }

    @Test(
        "EN4: a source node's sine is heard at its frequency; a tap on the main mixer gets buffers of its size with increasing sample times, off the render thread"
    )
    func sourceNodeAndTap() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.synth"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let phase = Mutex(0.0)
        let source = AVAudioSourceNode(format: format) { _, _, frames, list in
            let buffers = UnsafeMutableAudioBufferListPointer(list)
            let samples = buffers[0].mData!.assumingMemoryBound(to: Float.self)
            phase.withLock { phase in
                for frame in 0..<Int(frames) {
                    samples[frame] = 0.25 * Float(sin(phase))
                    phase += 2 * Double.pi * 1_000 / 48_000
                }
            }
            return 0
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let taps = Mutex<[(frames: AVAudioFrameCount, time: AVAudioFramePosition, peak: Float)]>([])
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4_800, format: nil) { buffer, time in
            let peak = (0..<Int(buffer.frameLength)).map { abs(buffer.floatChannelData![0][$0]) }.max() ?? 0
            taps.withLock { $0.append((buffer.frameLength, time.sampleTime, peak)) }
        }
        try engine.start()
        #expect(eventually { taps.withLock { $0.count } >= 3 })
        engine.mainMixerNode.removeTap(onBus: 0)
        let count = taps.withLock { $0.count }
        Thread.sleep(forTimeInterval: 0.2)
        engine.stop()
        #expect(taps.withLock { $0.count } == count, "no tap call after removeTap")
        let seen = taps.withLock { $0 }
        #expect(seen.allSatisfy { $0.frames == 4_800 }, "\(seen.map(\.frames))")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1.time == $0.time + 4_800 }, "\(seen.map(\.time))")
        #expect(seen.dropFirst().allSatisfy { abs($0.peak - 0.25) < 0.01 }, "\(seen.map(\.peak))")
        let rendered = try fixture.rendered("engine.synth", port: "built-in-speaker")
        #expect(abs(Self.frequency(rendered) - 1_000) < 3, "\(Self.frequency(rendered)) Hz")
    }

    @Test(
        "EN5, A3: start() during a call throws insufficientPriority and stays stopped; EN6: a call stops a running engine, nothing renders during it, and start() after its end plays on from where the player paused"
    )
    func interruptions() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.call"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let buffer = Self.sine(440, amplitude: 0.5, seconds: 2)
        engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
        let done = Mutex(false)
        player.scheduleBuffer(buffer) { done.withLock { $0 = true } }
        player.play()
        try engine.start()
        #expect(eventually { ((try? fixture.rendered("engine.call", port: "built-in-speaker"))?.frames ?? 0) > 9_600 })
        fixture.system(.systemSession(.call, begin: true))
        #expect(eventually { !engine.isRunning }, "EN6: the call stops the engine")
        #expect(!player.isPlaying && !done.withLock { $0 }, "paused, its buffer kept")
        let framesAtCall = try fixture.rendered("engine.call", port: "built-in-speaker").frames
        #expect(throws: (any Error).self) { try engine.start() }
        do {
            try engine.start()
        } catch {
            #expect((error as NSError).code == Int(SessionError.Code.insufficientPriority.rawValue), "\(error)")
        }
        #expect(!engine.isRunning)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try fixture.rendered("engine.call", port: "built-in-speaker").frames == framesAtCall, "nothing during the call")
        fixture.system(.systemSession(.call, begin: false))
        try engine.start()
        #expect(player.isPlaying, "the player plays on")
        #expect(eventually { done.withLock { $0 } })
        engine.stop()
        let rendered = try fixture.rendered("engine.call", port: "built-in-speaker")
        // Every frame of the buffer once: nothing lost or repeated across the interruption.
        let loud = stride(from: 0, to: rendered.samples.count, by: rendered.channels).filter { abs(rendered.samples[$0]) > 0.001 }
            .count
        #expect(abs(loud - 96_000) < 200, "\(loud) loud frames of 96000")
    }

    @Test(
        "EN3, EN4, EN8: bad input is said, never a crash: a cycle, a node of another engine, connect before attach, a second tap, a tap format the bus cannot give, a detached player, an empty buffer, voice processing while running, the input node without input"
    )
    func badInput() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.bad"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let other = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        _ = engine.mainMixerNode
        let mixerA = AVAudioMixerNode()
        let mixerB = AVAudioMixerNode()
        engine.attach(mixerA)
        engine.attach(mixerB)
        engine.connect(mixerA, to: mixerB, format: nil)
        engine.connect(mixerB, to: mixerA, format: nil)
        #expect(throws: (any Error).self) { try engine.start() }
        do { try engine.start() } catch { Issue.record("the cycle is reported once, then the graph runs: \(error)") }
        engine.stop()

        let foreign = AVAudioPlayerNode()
        other.attach(foreign)
        engine.connect(foreign, to: engine.mainMixerNode, format: nil)
        var message = ""
        do { try engine.start() } catch { message = (error as NSError).localizedDescription }
        #expect(message.contains("another engine"), "\(message)")
        engine.stop()

        let loose = AVAudioPlayerNode()
        engine.connect(loose, to: engine.mainMixerNode, format: nil)
        message = ""
        do { try engine.start() } catch { message = (error as NSError).localizedDescription }
        #expect(message.contains("not attached"), "\(message)")
        engine.stop()

        let called = Mutex(0)
        loose.scheduleBuffer(Self.sine(440, amplitude: 0.1, seconds: 0.1)) { called.withLock { $0 += 1 } }
        #expect(called.withLock { $0 } == 1, "a detached player's handler is called at once")
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let empty = AVAudioPCMBuffer(
            pcmFormat: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!, frameCapacity: 16)!
        player.scheduleBuffer(empty) { called.withLock { $0 += 1 } }
        player.scheduleBuffer(Self.sine(440, amplitude: 0.1, seconds: 0.1, channels: 2)) { called.withLock { $0 += 1 } }
        #expect(called.withLock { $0 } == 3, "an empty buffer and one of another format: refused, handlers called")
        empty.frameLength = 17
        #expect(empty.frameLength == 0, "frameLength over the capacity is refused")

        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 1_024, format: nil) { _, _ in }
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 1_024, format: nil) { _, _ in called.withLock { $0 += 100 } }
        engine.mainMixerNode.removeTap(onBus: 0)
        engine.mainMixerNode.installTap(
            onBus: 0, bufferSize: 1_024, format: AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)
        ) { _, _ in called.withLock { $0 += 100 } }
        try engine.start()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(called.withLock { $0 } == 3, "neither the second tap nor the mismatched one was installed")
        #expect(throws: (any Error).self) { try engine.inputNode.setVoiceProcessingEnabled(true) }
        engine.stop()
        #expect(engine.inputNode.outputFormat(forBus: 0).sampleRate == 0, "EN5: playback has no input: 0 Hz")
        #expect(engine.inputNode.outputFormat(forBus: 0).channelCount == 0)
        engine.connect(engine.inputNode, to: engine.mainMixerNode, format: nil)
        message = ""
        do { try engine.start() } catch { message = (error as NSError).localizedDescription }
        #expect(!engine.isRunning)
        #expect(message.contains("no input"), "\(message)")
        #expect(AVAudioFormat(standardFormatWithSampleRate: 4_000, channels: 1) == nil)
        #expect(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 3) == nil)
        #expect(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 48_000, channels: 1, interleaved: false) == nil)
    }
}
