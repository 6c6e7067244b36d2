import AudioSession
import Foundation
import Testing

/// Issue 41: an iOS podcast player's Now Playing and remote commands (`import MediaPlayer`) on
/// the desktop's media controls — MPRIS on a private session bus, driven by playerctl as the
/// shell's controls and media keys drive it — and, against a daemon with the players bridge,
/// one app, not two.
@Suite("MediaPlayer over MPRIS: an iOS player on the desktop's media controls", .serialized)
struct MediaPlayerTests {
    @Test(
        "playerctl lists the podcast player, reads its title and status; pause, next, position and play reach its handlers; the status follows the rate; with the bridge it is one app"
    )
    func podcastOnTheDesktop() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio)
        defer { desktop.stop() }
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "com.example.podcasts"]
        let pid = try desktop.start([FlappingServerTests.executable("podcast-player"), "--play"], log: "podcast.log")
        func log() -> String { (try? String(contentsOfFile: "\(desktop.server.directory)/podcast.log", encoding: .utf8)) ?? "" }
        let name = "podcast_player.instance\(pid)"
        #expect(
            eventually { (try? desktop.playerctl(["-l"]))?.split(separator: "\n").contains(Substring(name)) == true }, "\(log())")
        func ctl(_ arguments: [String]) -> String { (try? desktop.playerctl(["-p", name] + arguments)) ?? "?" }
        // (Its name is on the bus a moment before its Now Playing is.)
        #expect(eventually { ctl(["metadata", "title"]) == "Pilot" }, "\(ctl(["metadata"]))\n\(log())")
        #expect(ctl(["metadata", "artist"]) == "The Example Show")
        #expect(ctl(["metadata", "album"]) == "Season 1")
        #expect(ctl(["metadata", "mpris:length"]) == "1800000000")
        #expect(eventually { desktop.status(name) == "Playing" })

        // Pause: the handler runs; its Now Playing rate 0 makes the status Paused.
        try desktop.playerctl(["-p", name, "pause"])
        #expect(eventually { log().contains("\npause\n") }, "\(log())")
        #expect(eventually { desktop.status(name) == "Paused" })
        // Next: the handler moves to the next episode; the title follows.
        try desktop.playerctl(["-p", name, "next"])
        #expect(eventually { log().contains("next 1") })
        #expect(eventually { ctl(["metadata", "title"]) == "Second Wind" })
        // Position: SetPosition through changePlaybackPositionCommand.
        try desktop.playerctl(["-p", name, "position", "600"])
        #expect(eventually { log().contains("seek 600") }, "\(log())")
        #expect(eventually { Double(ctl(["position"])).map { abs($0 - 600) < 1 } == true })
        // Previous is disabled: the desktop is told it cannot go back.
        #expect(eventually { (try? desktop.playerctl(["-p", name, "metadata", "--format", "{{mpris:trackid}}"])) != nil })
        try desktop.playerctl(["-p", name, "play"])
        #expect(eventually { desktop.status(name) == "Playing" })
        #expect(eventually { log().components(separatedBy: "\n").filter { $0 == "play" }.count == 2 }, "\(log())")

        // Repeat, shuffle and rate (issue 50): LoopStatus, Shuffle and Rate are writable and reach
        // the handlers with Apple's events; the modes read back as the app set them.
        try desktop.playerctl(["-p", name, "loop", "Track"])
        #expect(eventually { log().contains("repeat 1") }, "\(log())")
        #expect(eventually { ctl(["loop"]) == "Track" })
        try desktop.playerctl(["-p", name, "shuffle", "On"])
        #expect(eventually { log().contains("shuffle 1") }, "\(log())")
        #expect(eventually { ctl(["shuffle"]) == "On" })
        _ = try? PulseFixture.run(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.\(name)", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Rate",
                "variant:double:1.5",
            ], environment: desktop.environment)
        #expect(eventually { log().contains("rate 1.5") }, "\(log())")

        // Issue 50: a call interrupts its session; its Now Playing rate still says 1, but what Control
        // Center would show — and the desktop's controls now — is Paused (within the second the
        // service rechecks).
        #expect(eventually { desktop.status(name) == "Playing" })
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(name) == "Paused" }, "its session let go: Paused. \(log())")
        try desktop.system(.systemSession(.call, begin: false))

        // With the daemon and the bridge: one app — the client's — and no player app for it.
        #expect(eventually { desktop.apps().contains("com.example.podcasts") }, "\(desktop.apps())")
        // PL1 whichever came first: the bridge's claim refused (the app connected before its MPRIS
        // name appeared), or let go when the app connected after it.
        #expect(
            eventually {
                desktop.bridgeLog.contains("PL1: this player's process is the connected app")
                    || desktop.daemonLog.contains("PL1: a player's process connected as an app of its own")
            }, "\(desktop.bridgeLog)\n\(desktop.daemonLog)")
        #expect(eventually { !desktop.hasApp { $0.player != nil } }, "\(desktop.apps())")
    }
}
