import AVFAudio
import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

@testable import PulseBackend

/// SO2, SO3, SO7 on real servers: Apple's AVAudioPlayer, heard on the speaker's monitor — at its
/// level, ducked, silenced by a call and told so through its delegate, and nothing left behind —
/// and AVAudioRecorder recording a tone from the microphone.
@Suite("AVAudioPlayer and AVAudioRecorder on a real server (SO2, SO3, SO7)", .serialized)
struct AVAudioPlayerServerTests {
    final class Delegate: NSObject, AVAudioPlayerDelegate, AVAudioRecorderDelegate, @unchecked Sendable {
        let heard = Mutex<[String]>([])
        func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {
            heard.withLock { $0.append("begin playing=\(player.isPlaying)") }
        }
        func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) {
            heard.withLock { $0.append("end \(flags)") }
        }
        func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
            heard.withLock { $0.append("finished \(flag)") }
        }
        func audioRecorderBeginInterruption(_ recorder: AVAudioRecorder) {
            heard.withLock { $0.append("recorder begin recording=\(recorder.isRecording)") }
        }
        func audioRecorderEndInterruption(_ recorder: AVAudioRecorder, withOptions flags: Int) {
            heard.withLock { $0.append("recorder end \(flags)") }
        }
        func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
            heard.withLock { $0.append("recorded \(flag)") }
        }
        var all: [String] { heard.withLock { $0 } }
    }

    @Test(
        "SO3: a memo recorded from the microphone holds its tone (frequency, level); a call pauses it and the file is readable meanwhile; stop() finishes it",
        arguments: ServerKind.allCases)
    func recorded(_ kind: ServerKind) throws {
        // Record permission granted (P2; otherwise the first recording asks, and records silence meanwhile, P3).
        let pulse = try PulseFixture(kind)
        let arbiter = try Arbiter(
            configuration: .init(profile: .desktop, permissionPolicy: .grant), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: RealServerTests.quiet)
        defer { backend.close(); pulse.stop() }
        let source = try Self.microphoneTone(pulse, arbiter)
        defer { source.stop() }
        let memo = AVAudioSession(
            wrapping: AudioSession(appID: "memo", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        try memo.setCategory(.playAndRecord, options: [.mixWithOthers])
        let path = pulse.directory + "/memo.wav"
        let recorder = try AVAudioRecorder(
            url: URL(fileURLWithPath: path), settings: [AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1], session: memo,
            endpoint: .soundServer(pulse.server))
        let delegate = Delegate()
        recorder.delegate = delegate
        #expect(recorder.record())
        #expect(eventually { recorder.currentTime > 1 }, "\(kind): \(recorder.currentTime) s")

        arbiter.report(.systemSession(.call, begin: true))
        #expect(eventually { delegate.all == ["recorder begin recording=false"] }, "\(kind): \(delegate.all)")
        let meanwhile = try SoundFile.read(path)
        #expect(meanwhile.frames > 40_000, "\(kind): readable while it is still open: \(meanwhile.frames) frames")
        arbiter.report(.systemSession(.call, begin: false))
        #expect(eventually { delegate.all.count == 2 }, "\(kind): \(delegate.all)")
        #expect(delegate.all.last == "recorder end 1")
        #expect(recorder.record())
        let resumedAt = recorder.currentTime
        #expect(eventually { recorder.currentTime > resumedAt + 0.5 })
        let total = recorder.currentTime
        recorder.stop()
        #expect(eventually { delegate.all.last == "recorded true" }, "\(kind): \(delegate.all)")

        let recorded = try SoundFile.read(path)
        #expect(recorded.sampleRate == 48_000 && recorded.channels == 1)
        #expect(abs(recorded.duration - total) < 0.1, "\(kind): \(recorded.duration) s in the file, \(total) s recorded")
        #expect(recorded.frames > meanwhile.frames + 24_000, "\(kind): it recorded on after the call")
        // What it recorded before the call (its tone source is another app, paused by the call too):
        // the tone's level (± the server's mixing) and its frequency.
        // (Not its last 250 ms: the call stopped the tone and the recording in the same moment.)
        let before = Array(meanwhile.samples.dropLast(12_000).suffix(24_000))
        let level = LevelMeter.dBFS(before[...])
        let profile = stride(from: 0, to: meanwhile.samples.count, by: 12_000).map {
            Int(LevelMeter.dBFS(meanwhile.samples[$0..<min($0 + 12_000, meanwhile.samples.count)]))
        }
        #expect(abs(level - 20 * log10(0.5)) < 3.5, "\(kind): recorded at \(level) dBFS; each 250 ms: \(profile)")
        // Its frequency: 440 Hz carries far more power than its neighbours a third away.
        let at440 = Self.power(of: 440, in: before), below = Self.power(of: 330, in: before)
        let above = Self.power(of: 550, in: before)
        #expect(at440 > 30 * max(below, above), "\(kind): 440 Hz \(at440), 330 Hz \(below), 550 Hz \(above)")
    }

    /// What the microphone hears: it records the speaker's monitor (PulseFixture), where a mixable
    /// app plays a 440 Hz tone at −6 dBFS for 30 s (stop it when done).
    static func microphoneTone(_ pulse: PulseFixture, _ arbiter: Arbiter) throws -> AudioPlayer {
        let tone = AudioSession(appID: "tone", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try tone.setCategory(.playback, options: [.mixWithOthers])
        let source = try AudioPlayer(
            contentsOf: PlaybackLevelTests.tone(pulse, seconds: 30, amplitude: 0.5, name: "tone"), session: tone,
            endpoint: .soundServer(pulse.server))
        try source.play()
        return source
    }

    /// The power of one frequency in samples at `rate` (Goertzel).
    static func power(of frequency: Double, in samples: [Float], rate: Double = 48_000) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
        var (previous, beforePrevious) = (0.0, 0.0)
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            (beforePrevious, previous) = (previous, current)
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    @Test(
        "SO2: heard at its level, metering within 1 dB of the monitor; ducked by duckOthers (D1); a call silences it and its delegate hears it; after the end nothing plays until play(); stop() leaves no stream",
        arguments: ServerKind.allCases)
    func heard(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        // The monitor recorded in stereo: a mono meter's downmix differs between the servers (PipeWire's
        // adds 3 dB for a sound in both channels), the stereo samples are what the sink plays.
        let monitor = try pulse.recordMonitor(of: "speaker", channels: 2)
        defer { monitor.stop() }
        let music = AVAudioSession(
            wrapping: AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        try music.setCategory(.playback)
        let url = URL(fileURLWithPath: try PlaybackLevelTests.tone(pulse, seconds: 30, amplitude: 0.5, name: "tone"))
        let player = try AVAudioPlayer(contentsOf: url, session: music, endpoint: .soundServer(pulse.server))
        let delegate = Delegate()
        player.delegate = delegate
        player.isMeteringEnabled = true
        #expect(player.play())
        #expect(eventually { (try? pulse.ownStream(of: "music")) != nil }, "\(kind): its stream carries the app")
        #expect(eventually { monitor.steadyLevel() > -20 }, "\(kind): heard")
        player.updateMeters()
        let full = monitor.steadyLevel()
        player.updateMeters()
        let metered = Double(player.averagePower(forChannel: 0))
        #expect(abs(full - 20 * log10(0.5)) < 1, "\(kind): heard at \(full) dBFS, the file's −6.02 ± 1 dB")
        #expect(abs(metered - 20 * log10(0.5)) < 0.1, "\(kind): metered \(metered) dBFS")
        #expect(abs(metered - full) < 1, "\(kind): metering \(metered) within 1 dB of the monitor's \(full)")

        // D1: another app's duckOthers ducks what is heard; `volume` still reads the app's own.
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        var ducked = full
        #expect(
            eventually(within: 3) {
                ducked = monitor.steadyLevel()
                return abs(ducked - full - 20 * log10(0.2)) < 0.5
            }, "\(kind): ducked \(ducked - full) dB")
        #expect(player.volume == 1)
        try navigation.setActive(false)
        navigation.close()

        // I1: a call pauses it; BeginInterruption on the main queue with isPlaying false.
        arbiter.report(.systemSession(.call, begin: true))
        #expect(eventually { delegate.all == ["begin playing=false"] }, "\(kind): \(delegate.all)")
        usleep(200_000)
        #expect(monitor.level(over: 0.4) < -60, "\(kind): silent during the call")
        #expect(!player.play(), "A3: play() during the call is false")
        #expect(monitor.level(over: 0.3) < -60, "\(kind): and nothing is heard")
        let position = player.currentTime
        arbiter.report(.systemSession(.call, begin: false))
        #expect(eventually { delegate.all.count == 2 }, "\(kind): \(delegate.all)")
        #expect(delegate.all.last == "end 1", "EndInterruption with .shouldResume: \(delegate.all)")
        #expect(music.session.isActive, "\(kind): the session is active again (the seeds)")
        #expect(monitor.level(over: 0.3) < -60, "\(kind): nothing plays until play()")
        #expect(abs(player.currentTime - position) < 0.001, "position kept")
        #expect(player.play())
        var again = -240.0
        #expect(
            eventually(within: 3) {
                again = monitor.steadyLevel()
                return abs(again - full) < 0.5
            }, "\(kind): heard again after play(): \(again) dBFS, \(full) before")

        // SO7: stopped, nothing is left on the server.
        player.stop()
        #expect(eventually { (try? pulse.ownStream(of: "music")) == nil }, "\(kind): no stream left")
        #expect(arbiter.engine.invariantViolations.isEmpty)
    }
}
