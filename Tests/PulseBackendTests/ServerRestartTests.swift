import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import PulseBackend

/// MS3 (issue 26): the sound server goes away under a running daemon and comes back — killed
/// with SIGKILL as a crash would, PipeWire's three daemons together — on PulseAudio and PipeWire.
@Suite("The sound server restarts (MS3)", .serialized)
struct ServerRestartTests {
    /// What one app was told, in order.
    final class Heard: Sendable {
        let items = Mutex<[SessionNotification]>([])
        init(_ session: AudioSession) { session.addNotificationHandler { note in self.items.withLock { $0.append(note) } } }
        func contains(_ notification: SessionNotification) -> Bool { items.withLock { $0.contains(notification) } }
        var all: [SessionNotification] { items.withLock { $0 } }
        func clear() { items.withLock { $0.removeAll() } }
    }

    @Test(
        "MS3: lost — apps told, calls fail with msrv, the server's streams gone; back — reset, then streams governed again",
        arguments: ServerKind.allCases)
    func lostAndBack(_ kind: ServerKind) throws {
        let log = InMemoryLogHandler()
        let (pulse, arbiter, backend) = try RealServerTests.start(kind, log: log)
        /// What the backend said of volumes and the server (shown when an expectation fails).
        var server = pulse
        func trail() -> String {
            (log.entries.map { "\($0.message) \($0.metadata)" } + [server.logs]).joined(separator: "\n")
        }
        defer {
            backend.close()
            server.stop()
        }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        let heard = Heard(music)
        try music.setCategory(.playback)
        try music.setActive(true)
        let radio = try pulse.play(role: "music")
        defer { PulseFixture.end(radio) }
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): the radio is other audio")

        #expect(arbiter.report(.outputVolume(0.5)) == nil)
        #expect(eventually { (try? pulse.pactl(["get-sink-volume", "speaker"]))?.contains(" 50%") == true })
        heard.clear()

        pulse.crash()
        #expect(eventually { heard.contains(.mediaServicesLost) }, "\(kind): MS1 after the server died")
        #expect(arbiter.engine.mediaServicesLost && backend.lostSince != nil)
        #expect(eventually { arbiter.deviceStatus.otherAudio.isEmpty }, "the dead server's streams left the device")
        #expect(throws: SessionError.self) { try music.setActive(true) }  // msrv meanwhile
        #expect(!heard.all.contains { if case .routeChange = $0 { true } else { false } }, "nothing but lost")

        server = try PulseFixture(kind, in: pulse.directory)
        #expect(eventually { heard.contains(.mediaServicesReset) }, "\(kind): MS2 when it is back")
        #expect(eventually { backend.lostSince == nil })
        #expect(try !music.status().isActive, "MS2: the session is back to its defaults")
        // The output volume the daemon kept is written back to the new server's sink (at 100%).
        #expect(
            eventually { (try? server.pactl(["get-sink-volume", "speaker"]))?.contains(" 50%") == true },
            "\(kind): \((try? server.pactl(["get-sink-volume", "speaker"])) ?? "?")\n\(trail())")
        #expect(arbiter.deviceStatus.outputVolume == 0.5, "\(trail())")

        // Governed as if new: a ducker ducks a stream started after the restart, a call mutes it.
        let again = try server.play(role: "music")
        defer { PulseFixture.end(again) }
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 })
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        #expect(
            eventually { backend.foreignStreams.values.contains { abs($0.gain - 0.2) < 0.001 } },
            "\(kind): the new stream is ducked: \(backend.foreignStreams)")
        try navigation.setActive(false)
        let call = try server.play(role: "phone")
        defer { PulseFixture.end(call) }
        #expect(
            eventually { backend.foreignStreams.values.contains { $0.muted } },
            "\(kind): a call after the restart mutes other audio: \(backend.foreignStreams)")
        music.close()
        navigation.close()
    }

    @Test(
        "MS3: the devices a returning server makes seconds after it accepts clients (WirePlumber on a loaded machine) still get the kept output volume; once it is theirs, the user's change is taken"
    )
    func lateDevices() throws {
        let log = InMemoryLogHandler()
        let (pulse, arbiter, backend) = try RealServerTests.start(.pipewire, log: log)
        var server = pulse
        defer {
            backend.close()
            server.stop()
        }
        func trail() -> String {
            let sinks = (try? server.pactl(["list", "sinks", "short"])) ?? "?"
            let info =
                (try? server.pactl(["info"]))?.split(separator: "\n").filter { $0.hasPrefix("Default Sink") }.map(String.init)
                ?? []
            return ([sinks] + info + log.entries.map { "\($0.message) \($0.metadata)" } + [server.logs]).joined(separator: "\n")
        }
        #expect(arbiter.report(.outputVolume(0.4)) == nil)
        // (Failed once here with the tests of other suites running beside it: what the server then
        // said of its sinks, its default and its log, and the backend's, is shown.)
        #expect(
            eventually { (try? pulse.pactl(["get-sink-volume", "speaker"]))?.contains(" 40%") == true },
            "before the restart: \((try? pulse.pactl(["get-sink-volume", "speaker"])) ?? "?")\n\(trail())")
        pulse.crash()
        #expect(eventually { backend.lostSince != nil })
        // The speaker 4 s after the server's socket, past the moment the backend connected.
        server = try PulseFixture(.pipewire, in: pulse.directory, devicesAfter: 4)
        #expect(
            eventually { (try? server.pactl(["get-sink-volume", "speaker"]))?.contains(" 40%") == true },
            "\((try? server.pactl(["get-sink-volume", "speaker"])) ?? "?")\n\(trail())")
        #expect(arbiter.deviceStatus.outputVolume == 0.4, "\(trail())")
        try server.pactl(["set-sink-volume", "speaker", "70%"])
        #expect(eventually { abs(arbiter.deviceStatus.outputVolume - 0.7) < 0.01 }, "the user's volume: \(trail())")
    }

    @Test(
        "HW7, RT13: told a default sink that is no sink (pipewire-pulse names none to a client that connected too early), the backend asks a new connection and follows the real one"
    )
    func placeholderDefaultSink() throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(.pipewire)
        defer {
            backend.close()
            pulse.stop()
        }
        #expect(eventually { backend.state.withLock { $0.defaultSink } == "speaker" })
        try pulse.pactl(["set-sink-volume", "speaker", "30%"])
        #expect(eventually { abs(arbiter.deviceStatus.outputVolume - 0.3) < 0.01 })
        // What the early connection is told, every second: the placeholder.
        backend.queue.sync { backend.handle(.defaultSink("@DEFAULT_SINK@")) }
        #expect(backend.state.withLock { $0.defaultSink } == "speaker", "the known default sink kept meanwhile")
        #expect(eventually { backend.state.withLock { $0.askedDefaultSink } == "speaker" })
        #expect(backend.state.withLock { $0.defaultSink } == "speaker", "the real default sink kept")
        try pulse.pactl(["set-sink-volume", "speaker", "60%"])
        #expect(eventually { abs(arbiter.deviceStatus.outputVolume - 0.6) < 0.01 }, "its volume still the output volume (HW7)")
    }

    @Test("MS3: the server not there at the start: the backend waits, and governs it when it appears")
    func serverAppearsLater() throws {
        let pulse = try PulseFixture(.pulseaudio)
        let directory = pulse.directory
        pulse.crash()
        var server: PulseFixture? = nil
        defer { server?.stop() }
        let arbiter = try Arbiter(configuration: .init(profile: .desktop), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: RealServerTests.quiet)
        defer { backend.close() }
        #expect(backend.lostSince != nil && arbiter.engine.mediaServicesLost, "no server: media services lost")
        let music = AudioSession(appID: "music", transport: .inProcess(arbiter))
        #expect(throws: SessionError.self) { try music.setCategory(.playback) }
        server = try PulseFixture(.pulseaudio, in: directory)
        #expect(eventually { backend.lostSince == nil }, "connected once the server appeared")
        try music.setCategory(.playback)
        music.close()
    }

    @Test("MS3: a player of our library plays on after the restart, from where it was (automatic re-apply)")
    func playerPlaysOn() throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(.pulseaudio)
        var server = pulse
        defer {
            backend.close()
            server.stop()
        }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        music.reappliesConfigurationAfterReset = true
        try music.setCategory(.playback)
        let player = try AudioPlayer(
            contentsOf: PlaybackLevelTests.tone(pulse, seconds: 60, amplitude: 0.2, name: "long"), session: music,
            endpoint: .soundServer(pulse.server))
        let events = PlaybackLevelTests.Events()
        player.eventHandler = events.append
        try player.play()
        #expect(eventually { backend.ownStreams.values.contains { $0.app == "music" } })
        // (An idle null sink first renders ahead by seconds: wait until the tone moves.)
        #expect(eventually { player.currentTime > 0.3 }, "the tone plays")
        pulse.crash()
        #expect(events.saw(.paused(.mediaServices)), "the player stops with the server")
        let position = player.currentTime
        server = try PulseFixture(.pulseaudio, in: pulse.directory)
        #expect(events.saw(.resumed), "\(events.items.withLock { $0 })")
        #expect(
            eventually { (try? server.ownStream(of: "music")) != nil }, "a new stream on the new server")
        #expect(eventually { player.currentTime > position + 0.2 }, "it plays on from \(position) s")
        #expect(player.currentTime < position + 5, "from where it was, not from the start")
        player.stop()
        music.close()
    }
}
