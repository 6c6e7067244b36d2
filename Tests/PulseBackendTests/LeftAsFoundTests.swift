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
        #expect(eventually(within: 2) { desktop.streamMuted(of: game) == false }, "the game unmuted")
        #expect(eventually(within: 2) { desktop.streamMuted(of: mpv.pid) == false }, "mpv's stream unmuted")
        PulseFixture.end(game)
        let again = try desktop.server.play(role: "game", application: "game")
        defer { PulseFixture.end(again) }
        #expect(eventually { desktop.streamMuted(of: again) != nil })
        usleep(300_000)
        #expect(desktop.streamMuted(of: again) == false, "\(kind): the game's next stream is not muted")
    }
}
