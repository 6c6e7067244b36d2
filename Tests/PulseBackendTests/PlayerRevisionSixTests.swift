import AudioSession
import AudioSessionWire
import Foundation
import Testing

/// What real players showed (issue 49, SPEC revision 6): an MPRIS proxy whose sound comes from
/// another program (mpDris2 for mpd, PL1) and a seek no signal announced (Celluloid, Rhythmbox,
/// PL5) — with the scripted MPRIS player and a stream of another process.
@Suite("Players, revision 6: MPRIS proxies and unannounced seeks (PL1, PL5)", .serialized)
struct PlayerRevisionSixTests {
    @Test(
        "PL1 (revision 6): a proxy's player plays nothing itself; the stream of the program named as its Identity is its own — heard while it plays, never muted as other audio, muted by a call's interruption and heard after",
        arguments: ServerKind.allCases)
    func proxiedStream(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        // The proxy (its Identity "Fake mpdlike") and the daemon it speaks for, another process.
        _ = try desktop.fake("mpdlike")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.mpdlike" && $0.isActive } }, "\(desktop.bridgeLog)")
        let daemon = try desktop.start(
            ["/usr/bin/pacat", "--playback", "--raw", "--property=application.name=Fake mpdlike", "/dev/zero"], log: "pacat.log")
        #expect(eventually { desktop.streamMuted(of: daemon) != nil }, "its stream appeared")
        var samples: [Bool] = []
        for _ in 0..<10 {
            if let muted = desktop.streamMuted(of: daemon) { samples.append(muted) }
            usleep(50_000)
        }
        #expect(!samples.contains(true), "never muted as other audio while its player plays: \(samples)\n\(desktop.daemonLog)")
        #expect(
            (try? desktop.snapshot().device.otherAudio.contains { $0.audio.name == "Fake mpdlike" }) == false,
            "not other audio: \(String(describing: try? desktop.snapshot().device.otherAudio))")
        // PL3: the call pauses the player (its proxy) and the session mutes its stream until the end.
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.streamMuted(of: daemon) == true }, "muted by the interruption")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { desktop.streamMuted(of: daemon) == false }, "heard again after the call. \(desktop.daemonLog)")
    }

    @Test(
        "PL1 (revision 6) with the real programs: mpd published by mpDris2 is one player whose stream is its own — heard while it plays, paused and resumed by a call, never muted as other audio",
        arguments: ServerKind.allCases)
    func mpdWithMpDris2(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let directory = desktop.server.directory
        try FileManager.default.createDirectory(atPath: directory + "/music", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: desktop.tone, toPath: directory + "/music/tone.wav")
        let port = 20_000 + Int(getpid() % 20_000)
        try """
        music_directory "\(directory)/music"
        playlist_directory "\(directory)"
        db_file "\(directory)/mpd.db"
        bind_to_address "127.0.0.1"
        port "\(port)"
        audio_output {
            type "pulse"
            name "pulse"
            server "\(desktop.server.server.replacingOccurrences(of: "unix:", with: ""))"
        }
        """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        let mpd = try desktop.start(["/usr/bin/mpd", "--no-daemon", "--stderr", directory + "/mpd.conf"], log: "mpd.log")
        func mpc(_ arguments: [String]) -> String? {
            try? PulseFixture.run(
                "/usr/bin/mpc", ["-h", "127.0.0.1", "-p", "\(port)"] + arguments, environment: desktop.environment)
        }
        #expect(eventually { mpc(["status"]) != nil }, "mpd answers: \(desktop.log("mpd.log"))")
        _ = mpc(["update", "--wait"])
        _ = try desktop.start(["/usr/bin/mpDris2", "--host", "127.0.0.1", "--port", "\(port)"], log: "mpdris2.log")
        #expect(
            eventually(within: 15) { desktop.apps().contains("mpris.mpd") }, "\(desktop.bridgeLog)\n\(desktop.log("mpdris2.log"))"
        )
        _ = mpc(["repeat", "on"])
        _ = mpc(["add", "tone.wav"])
        _ = mpc(["play"])
        #expect(eventually { desktop.hasApp { $0.app == "mpris.mpd" && $0.isActive } }, "\(desktop.bridgeLog)")
        #expect(eventually { desktop.streamMuted(of: mpd) != nil }, "mpd's stream: \(desktop.log("mpd.log"))")
        var samples: [Bool] = []
        for _ in 0..<10 {
            if let muted = desktop.streamMuted(of: mpd) { samples.append(muted) }
            usleep(50_000)
        }
        #expect(
            !samples.isEmpty && !samples.contains(true),
            "its stream is its player's own, never muted: \(samples)\n\(desktop.daemonLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { mpc(["status"])?.contains("[paused]") == true }, "PL3: paused by the call. \(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { mpc(["status"])?.contains("[playing]") == true }, "PL4: playing again. \(desktop.bridgeLog)")
        #expect(eventually { desktop.streamMuted(of: mpd) == false }, "heard again")
        #expect(!desktop.daemonLog.contains("reason=other audio"), "never muted as other audio: \(desktop.daemonLog)")
    }

    @Test(
        "PL5 (revision 6): a seek nobody announced (its Position read before Play) ends the claim; a jitter of 0.5 s does not")
    func unannouncedSeek() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio)
        defer { desktop.stop() }
        let seeker = try desktop.fake("celluloidlike")
        let jitter = try desktop.fake("jittery", ["--silent-seek", "500", "--status", "Paused"])
        #expect(eventually { desktop.hasApp { $0.app == "mpris.celluloidlike" && $0.isActive } }, "\(desktop.bridgeLog)")
        func last(_ name: String, _ line: String) -> Bool {
            desktop.fakeLog(name).split(separator: "\n").last?.hasPrefix(line) == true
        }
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { last("celluloidlike", "status Paused") }, "PL3: paused by the call")
        usleep(300_000)  // the Position read at its pause has reached the bridge
        kill(seeker, SIGUSR2)  // the user seeks 30 s ahead during the call; nothing is announced
        #expect(eventually { last("celluloidlike", "seeked silently") })
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { desktop.bridgeLog.contains("its Position moved, no Seeked said so") },
            "PL5: the bridge read its Position and saw the seek. \(desktop.bridgeLog)")
        #expect(last("celluloidlike", "seeked silently"), "it stays paused: \(desktop.fakeLog("celluloidlike"))")

        // The other player, playing now, moved half a second (jitter): played again after the call.
        PulseFixture.end(seeker)
        _ = try desktop.playerctl(["-p", "jittery", "play"])
        #expect(eventually { desktop.hasApp { $0.app == "mpris.jittery" && $0.isActive } }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { last("jittery", "status Paused") })
        usleep(300_000)
        kill(jitter, SIGUSR2)
        #expect(eventually { last("jittery", "seeked silently") })
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { last("jittery", "status Playing") }, "a 0.5 s move is no seek. \(desktop.bridgeLog)")
    }
}
