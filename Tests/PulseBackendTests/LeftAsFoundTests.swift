import AudioSession
import AudioSessionWire
import Foundation
import Testing

/// OA6 (issue 38, first part): the daemon stopping (SIGTERM: a restart, an upgrade) undoes every
/// mute and duck of ours on the streams of programs that never heard of us, so the sound
/// server — which saves each program's volume and mute for its next stream (PulseAudio's
/// module-stream-restore, loaded by the fixture; WirePlumber's restore-stream) — is left with the
/// program's own.
@Suite("Nothing we write outlives us: the daemon stopping (OA6)", .serialized)
struct LeftAsFoundTests {
    @Test(
        "OA6: SIGTERM unmutes other audio muted by a playing player and a player's stream muted by a call; the game's next stream starts as the user left it",
        arguments: ServerKind.allCases)
    func sigtermUndoes(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let game = try desktop.server.play(role: "game", application: "game")
        defer { PulseFixture.end(game) }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.streamMuted(of: game) == true }, "OA4: muted while mpv plays")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(mpv.name) == "Paused" })
        #expect(eventually { desktop.streamMuted(of: mpv.pid) == true }, "PL3: mpv's stream muted by the call")
        kill(desktop.daemon.pid, SIGTERM)
        var status: Int32 = 0
        #expect(eventually { waitpid(desktop.daemon.pid, &status, WNOHANG) == desktop.daemon.pid }, "the daemon stopped")
        #expect(desktop.daemonLog.contains("our mutes and ducks undone (OA6)"), "\(desktop.daemonLog)")
        // Handled by the server before the daemon exited; PipeWire's pipewire-pulse applies it to
        // the node a moment later, so the stream's state is read until then (2 s at most).
        #expect(
            eventually(within: 2) { desktop.streamMuted(of: game) == false },
            "the game unmuted: \(desktop.streamBlock(of: game) ?? "no stream")\n\(desktop.daemonLog)")
        #expect(
            eventually(within: 2) { desktop.streamMuted(of: mpv.pid) == false },
            "mpv's stream unmuted: \(desktop.streamBlock(of: mpv.pid) ?? "no stream")\n\(desktop.daemonLog)")
        PulseFixture.end(game)
        let again = try desktop.server.play(role: "game", application: "game")
        defer { PulseFixture.end(again) }
        #expect(eventually { desktop.streamMuted(of: again) != nil })
        usleep(300_000)
        #expect(desktop.streamMuted(of: again) == false, "\(kind): the game's next stream is not muted")
    }

    @Test(
        "OA6: a program muted by a call and one ducked by a navigation prompt, each ending so, start again as the user left them (a volume the user set meanwhile kept)",
        arguments: ServerKind.allCases)
    func endingMutedOrDucked(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        // Muted by a call (I4), ended during it.
        PulseFixture.end(try Self.gameMutedByACall(desktop))
        try desktop.system(.systemSession(.call, begin: false))
        try Self.expectNextGameUnmuted(desktop)
        // Ducked by a navigation prompt (D1); the user sets its volume meanwhile; ended ducked.
        let music = try desktop.server.play(role: "music", application: "music")
        #expect(eventually { desktop.streamVolume(of: music) == 100 })
        let navigation = AudioSession(appID: "navigation", transport: desktop.transport)
        defer { navigation.close() }
        try navigation.setCategory(.playback, options: .duckOthers)
        try navigation.setActive(true)
        #expect(eventually { (desktop.streamVolume(of: music) ?? 100) < 100 }, "D1: ducked")
        let index = try #require(desktop.streamBlock(of: music)?.split(separator: "\n").first.map(String.init))
        try desktop.server.pactl(["set-sink-input-volume", index, "60%"])
        #expect(eventually { desktop.streamVolume(of: music) == 60 }, "the user's volume is heard")
        PulseFixture.end(music)
        try navigation.setActive(false)
        let next = try desktop.server.play(role: "music", application: "music")
        defer { PulseFixture.end(next) }
        #expect(eventually { desktop.streamVolume(of: next) != nil })
        usleep(300_000)
        #expect(desktop.streamVolume(of: next) == 60, "\(kind): the music's next stream starts at the user's 60 %, not ducked")
        #expect(desktop.streamMuted(of: next) == false)
    }

    @Test(
        "OA6: the daemon killed (SIGKILL) while a program is muted, the program ending meanwhile: the next start writes back its own state",
        arguments: ServerKind.allCases)
    func crashLeavesNothing(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let game = try Self.gameMutedByACall(desktop)
        usleep(300_000)  // the ledger's file written
        try desktop.restartDaemon {
            PulseFixture.end(game)  // ends muted, with no daemon: the server saves the mute
            usleep(300_000)
        }
        #expect(
            eventually(within: 10) { desktop.daemon.log.contains("left ducked or muted written back (OA6)") },
            "\(desktop.daemon.log)")
        try Self.expectNextGameUnmuted(desktop)
    }

    /// A game playing, muted by a call (I4).
    static func gameMutedByACall(_ desktop: PlayersBridgeTests.Desktop) throws -> pid_t {
        let game = try desktop.server.play(role: "game", application: "game")
        #expect(eventually { desktop.streamMuted(of: game) == false })
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.streamMuted(of: game) == true }, "I4: muted by the call")
        return game
    }

    /// The game started again: unmuted, as the user left it (it stays playing until the end of the test).
    static func expectNextGameUnmuted(_ desktop: PlayersBridgeTests.Desktop) throws {
        let again = try desktop.start(
            [
                "/usr/bin/pacat", "--playback", "--raw", "--property=media.role=game",
                "--property=application.name=game", "/dev/zero",
            ], log: "game.log")
        #expect(eventually { desktop.streamMuted(of: again) != nil })
        usleep(300_000)
        #expect(
            desktop.streamMuted(of: again) == false,
            "\(desktop.server.kind): the game's next stream is not muted\n\(desktop.daemon.log.suffix(3000))")
    }
}
