import AudioSession
import AudioSessionEngine
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Testing

@testable import PulseBackend

/// Issue 6: the client library's own streams follow their session, in the server's own account
/// of them (pactl), on PulseAudio 16 and PipeWire 0.3.
@Suite("Own streams follow their session", .serialized)
struct OwnStreamTests {
    @Test(
        "Moved to the route's sink (RT10), ducked (D1, D4), muted and corked during a call (I1), paused on unplug (RT11)",
        arguments: ServerKind.allCases)
    func followsTheSession(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        let player = try AudioPlayer(
            contentsOf: PlaybackLevelTests.tone(pulse, seconds: 30, amplitude: 0.5, name: "tone"), session: music,
            endpoint: .soundServer(pulse.server))
        let events = PlaybackLevelTests.Events()
        player.eventHandler = events.append
        try player.play()
        #expect(eventually { (try? pulse.ownStream(of: "music"))?.sink == "speaker" }, "\(kind)")

        // RT10: plugged headphones take the stream.
        let phones = try pulse.load(sink: "phones", "device.form_factor=headphone")
        #expect(eventually { (try? pulse.ownStream(of: "music"))?.sink == "phones" }, "\(kind): moved to the headphones")

        // D1, D4: ducked by the duck level, and whole again.
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        #expect(
            eventually { abs(((try? pulse.ownStream(of: "music"))?.decibels ?? 0) - 20 * log10(0.2)) < 0.5 }, "\(kind): ducked")
        try navigation.setActive(false)
        #expect(eventually { abs((try? pulse.ownStream(of: "music"))?.decibels ?? -100) < 0.1 }, "\(kind): whole again")

        // I1: paused by the player (corked) and muted by the daemon until it plays again (I3).
        arbiter.report(.systemSession(.call, begin: true))
        #expect(events.saw(.paused(.interruption)))
        #expect(
            eventually { (try? pulse.ownStream(of: "music")).map { $0?.muted == true && $0?.corked == true } ?? false }, "\(kind)"
        )
        arbiter.report(.systemSession(.call, begin: false))
        #expect(events.saw(.resumed))
        #expect(
            eventually { (try? pulse.ownStream(of: "music")).map { $0?.muted == false && $0?.corked == false } ?? false },
            "\(kind)")

        // RT11: the headphones go; the player pauses (pausesOnUnplug) and its stream is on the speaker again.
        try pulse.unload(phones)
        #expect(events.saw(.paused(.unplug)))
        #expect(
            eventually { (try? pulse.ownStream(of: "music")).map { $0?.sink == "speaker" && $0?.corked == true } ?? false },
            "\(kind)")
        #expect(arbiter.engine.invariantViolations.isEmpty)
        player.stop()
        music.close()
        navigation.close()
    }

    @Test("A recorder's stream records from the source of the session's input (RT10)", arguments: ServerKind.allCases)
    func recorderFollowsTheInput(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let memo = AudioSession(appID: "memo", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try memo.setCategory(.record)
        let path = pulse.directory + "/memo.wav"
        let recorder = AudioRecorder(path: path, session: memo, endpoint: .soundServer(pulse.server))
        _ = try pulse.load(source: "headset-mic", "device.form_factor=headset")
        #expect(eventually { memo.currentRoute.inputs.map(\.uid) == ["headset-mic"] })
        try recorder.record()
        #expect(eventually { (try? Self.recordSource(of: "memo", pulse)) == "headset-mic" }, "\(kind)")
        #expect(eventually { recorder.currentTime > 0.2 })
        recorder.stop()
        let recorded = try SoundFile.read(path)
        #expect(recorded.sampleRate == Int(memo.sampleRate))  // HW1: the stream's sample spec is the session's
        #expect(recorded.frames > 0)
        memo.close()
    }

    /// The source an app's record stream records from, by the server's account.
    static func recordSource(of app: String, _ pulse: PulseFixture) throws -> String? {
        let sources = try pulse.names(of: "sources")
        for block in try pulse.pactl(["list", "source-outputs"]).components(separatedBy: "Source Output #").dropFirst()
        where block.contains("audiosession.app = \"\(app)\"") {
            for line in block.split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("Source:") { return sources[text.dropFirst(7).trimmingCharacters(in: .whitespaces)] }
            }
        }
        return nil
    }
}
