import AVFAudio
import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

@testable import PulseBackend

/// SPEC §20 on real servers: an AVAudioEngine's graph heard on the speaker's monitor — a player
/// node at its level and frequency, ducked, stopped by a call and started again after it, nothing
/// left behind — and its input node's tap recording the microphone.
@Suite("AVAudioEngine on a real server (EN3–EN6, EN9)", .serialized)
struct AVAudioEngineServerTests {
    /// A mono 440 Hz buffer at 48 kHz.
    static func tone(seconds: Double, amplitude: Float) -> AVAudioPCMBuffer {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let frames = AVAudioFrameCount(seconds * 48_000)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for frame in 0..<Int(frames) {
            buffer.floatChannelData![0][frame] = amplitude * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
        }
        return buffer
    }

    /// A playback session "engine" and its engine: a player node looping `tone` at half scale
    /// into the main mixer, scheduled, not started.
    static func loopingTone(
        _ arbiter: Arbiter, _ pulse: PulseFixture
    ) throws -> (
        AVAudioSession, AVAudioEngine, AVAudioPlayerNode
    ) {
        let session = AVAudioSession(
            wrapping: AudioSession(appID: "engine", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: .soundServer(pulse.server))
        let player = AVAudioPlayerNode()
        let buffer = tone(seconds: 1, amplitude: 0.5)
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
        player.scheduleBuffer(buffer, at: nil, options: .loops)
        return (session, engine, player)
    }

    @Test(
        "EN4, EN5, EN6: a looping player node heard at its level on the monitor; ducked (D1); a call stops the engine (silent, start() throws !pri); after it start() plays on; stop() leaves no stream",
        arguments: ServerKind.allCases)
    func heard(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let monitor = try pulse.recordMonitor(of: "speaker", channels: 2)
        defer { monitor.stop() }
        let (music, engine, player) = try Self.loopingTone(arbiter, pulse)
        try engine.start()
        player.play()
        #expect(eventually { (try? pulse.ownStream(of: "engine")) != nil }, "\(kind): its stream carries the app")
        #expect(eventually { monitor.steadyLevel() > -20 }, "\(kind): heard")
        let full = monitor.steadyLevel()
        #expect(abs(full - 20 * log10(0.5)) < 1, "\(kind): heard at \(full) dBFS, the buffer's −6.02 ± 1 dB")

        // D1: another app's duckOthers reaches the engine's output.
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        var ducked = full
        #expect(
            eventually(within: 3) {
                ducked = monitor.steadyLevel()
                return abs(ducked - full - 20 * log10(0.2)) < 0.5
            }, "\(kind): ducked \(ducked - full) dB")
        try navigation.setActive(false)
        navigation.close()

        // EN6: a call stops it; nothing is heard; start() during it throws A3's code.
        arbiter.report(.systemSession(.call, begin: true))
        #expect(eventually { !engine.isRunning }, "\(kind): the call stops the engine")
        #expect(!player.isPlaying)
        usleep(200_000)
        #expect(monitor.level(over: 0.4) < -60, "\(kind): silent during the call")
        var code = 0
        do { try engine.start() } catch { code = (error as NSError).code }
        #expect(code == Int(SessionError.Code.insufficientPriority.rawValue), "\(kind): \(code)")
        #expect(eventually { (try? pulse.ownStream(of: "engine")) == nil }, "\(kind): nothing left while stopped")
        arbiter.report(.systemSession(.call, begin: false))
        try engine.start()
        #expect(player.isPlaying, "\(kind): the player node plays on")
        var again = -240.0
        #expect(
            eventually(within: 3) {
                again = monitor.steadyLevel()
                return abs(again - full) < 0.5
            }, "\(kind): heard again: \(again) dBFS, \(full) before")

        // EN5: stopped, nothing is left on the server; the session's output stopped.
        engine.stop()
        #expect(eventually { (try? pulse.ownStream(of: "engine")) == nil }, "\(kind): no stream left")
        // (The monitor's own latency may still carry the last moment: silence follows.)
        #expect(eventually(within: 3) { monitor.level(over: 0.2) < -60 }, "\(kind): silent after stop()")

        // EN5: an engine let go while it runs leaves nothing on the server either.
        var released: AVAudioEngine? = AVAudioEngine(session: music, endpoint: .soundServer(pulse.server))
        let source = AVAudioSourceNode { _, _, _, _ in noErr }
        released?.attach(source)
        if let mixer = released?.mainMixerNode { released?.connect(source, to: mixer, format: nil) }
        try released?.start()
        #expect(eventually { (try? pulse.ownStream(of: "engine")) != nil }, "\(kind): the second engine's stream")
        released = nil
        #expect(eventually { (try? pulse.ownStream(of: "engine")) == nil }, "\(kind): let go, no stream left")
        #expect(arbiter.engine.invariantViolations.isEmpty)
    }

    @Test(
        "EN3, EN5: a tap on the input node records the microphone's tone (frequency, level) in buffers of the size asked with increasing sample times",
        arguments: ServerKind.allCases)
    func inputTap(_ kind: ServerKind) throws {
        let pulse = try PulseFixture(kind)
        let arbiter = try Arbiter(
            configuration: .init(profile: .desktop, permissionPolicy: .grant), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: RealServerTests.quiet)
        defer { backend.close(); pulse.stop() }
        let source = try AVAudioPlayerServerTests.microphoneTone(pulse, arbiter)
        defer { source.stop() }
        let recognizer = AVAudioSession(
            wrapping: AudioSession(appID: "recognizer", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        // Mixable, so that the tone it records plays on (.record would silence it, C-rules).
        try recognizer.setCategory(.playAndRecord, mode: .measurement, options: [.mixWithOthers])
        let engine = AVAudioEngine(session: recognizer, endpoint: .soundServer(pulse.server))
        let format = engine.inputNode.outputFormat(forBus: 0)
        let heard = Mutex<(sizes: [AVAudioFrameCount], times: [AVAudioFramePosition], samples: [Float])>(([], [], []))
        engine.inputNode.installTap(onBus: 0, bufferSize: 4_800, format: format) { buffer, time in
            let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            heard.withLock {
                $0.sizes.append(buffer.frameLength)
                $0.times.append(time.sampleTime)
                $0.samples += samples
            }
        }
        try engine.start()
        #expect(eventually { heard.withLock { $0.sizes.count } >= 25 }, "\(kind): \(heard.withLock { $0.sizes.count }) buffers")
        engine.stop()
        let (sizes, times, samples) = heard.withLock { ($0.sizes, $0.times, $0.samples) }
        #expect(sizes.allSatisfy { $0 == 4_800 }, "\(kind): \(sizes)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 == $0 + 4_800 }, "\(kind): \(times)")
        let steady = Array(samples.suffix(48_000))
        let level = LevelMeter.dBFS(steady[...])
        #expect(abs(level - 20 * log10(0.5)) < 3.5, "\(kind): recorded at \(level) dBFS")
        let rate = format.sampleRate
        let at440 = AVAudioPlayerServerTests.power(of: 440, in: steady, rate: rate)
        let neighbours = max(
            AVAudioPlayerServerTests.power(of: 330, in: steady, rate: rate),
            AVAudioPlayerServerTests.power(of: 550, in: steady, rate: rate))
        #expect(at440 > 30 * neighbours, "\(kind): 440 Hz \(at440), neighbours \(neighbours) (rate \(rate))")
        #expect(
            eventually { (try? pulse.pactl(["list", "source-outputs"]).contains("audiosession.app = \"recognizer\"")) == false },
            "\(kind): no capture left")
    }
}
