import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SPEC EN4's time effects, measured on the simulated device's output: AVAudioUnitTimePitch keeps
/// the pitch and shortens the time (SoundTouch), AVAudioUnitVarispeed raises both (libsamplerate).
@Suite("AVAudioUnitTimePitch and AVAudioUnitVarispeed (EN4)", .serialized)
struct AVAudioTimeEffectTests {
    /// A two-second 440 Hz buffer played through `effect`; the rendered output's loud span in
    /// seconds and its frequency in the middle of it.
    static func play(through effect: AVAudioNode, app: String) throws -> (seconds: Double, frequency: Double) {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session(app))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let player = AVAudioPlayerNode()
        let buffer = AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 2)
        engine.attach(player)
        engine.attach(effect)
        engine.connect(player, to: effect, format: buffer.format)
        engine.connect(effect, to: engine.mainMixerNode, format: buffer.format)
        let done = Mutex(false)
        player.scheduleBuffer(buffer) { done.withLock { $0 = true } }
        try engine.start()
        player.play()
        #expect(eventually(6) { done.withLock { $0 } })
        Thread.sleep(forTimeInterval: 0.6)  // the effect's tail
        engine.stop()
        let rendered = try fixture.rendered(app, port: "built-in-speaker")
        let first = rendered.samples.firstIndex { abs($0) > 0.05 } ?? 0
        let last = rendered.samples.lastIndex { abs($0) > 0.05 } ?? 0
        let middle = Array(rendered.samples[(first + (last - first) / 4)..<(last - (last - first) / 4)])
        return (Double(last - first) / 48_000, AVAudioEngineInputTests.frequency(middle, rate: 48_000))
    }

    @Test("TimePitch at rate 1.5: the same 440 Hz, two seconds in 1.33 (±5 %)")
    func timePitchRate() throws {
        let effect = AVAudioUnitTimePitch()
        effect.rate = 1.5
        let (seconds, frequency) = try Self.play(through: effect, app: "engine.timepitch")
        #expect(abs(seconds - 2 / 1.5) < 0.07, "\(seconds) s")
        #expect(abs(frequency - 440) < 4, "\(frequency) Hz")
    }

    @Test("TimePitch at pitch +1200 cents: an octave up (880 Hz), still two seconds (±5 %)")
    func timePitchPitch() throws {
        let effect = AVAudioUnitTimePitch()
        effect.pitch = 1_200
        let (seconds, frequency) = try Self.play(through: effect, app: "engine.pitch")
        #expect(abs(seconds - 2) < 0.1, "\(seconds) s")
        #expect(abs(frequency - 880) < 8, "\(frequency) Hz")
    }

    @Test("Varispeed at rate 2: 880 Hz for one second (±3 %); bypassed, as it was; rates clamped to 0.25–4")
    func varispeed() throws {
        let effect = AVAudioUnitVarispeed()
        effect.rate = 2
        let (seconds, frequency) = try Self.play(through: effect, app: "engine.varispeed")
        #expect(abs(seconds - 1) < 0.03, "\(seconds) s")
        #expect(abs(frequency - 880) < 3, "\(frequency) Hz")
        let bypassed = AVAudioUnitVarispeed()
        bypassed.rate = 2
        bypassed.bypass = true
        let (plainSeconds, plainFrequency) = try Self.play(through: bypassed, app: "engine.bypass")
        #expect(abs(plainSeconds - 2) < 0.03 && abs(plainFrequency - 440) < 2, "\(plainSeconds) s, \(plainFrequency) Hz")
        bypassed.rate = 9
        #expect(bypassed.rate == 4)
        let pitch = AVAudioUnitTimePitch()
        pitch.rate = 100
        pitch.pitch = -5_000
        #expect(pitch.rate == 32 && pitch.pitch == -2_400)
    }
}
