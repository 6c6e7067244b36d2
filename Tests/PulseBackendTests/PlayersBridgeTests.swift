import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

/// §16 end to end (issue 27): real mpv players (with mpv-mpris) on a private session bus, a
/// headless sound server, `audiosessiond --backend pulse` and `audiosession-players` between them.
@Suite("MPRIS players governed as apps, with real mpv (§16)", .serialized)
struct PlayersBridgeTests {

    @Test(
        "POL1 through the bridge: a mixing player pauses nobody, an ignored one is other audio; SIGHUP: a new table for the next player, a bad one changes nothing"
    )
    func policyForPlayers() throws {
        let desktop = try Desktop(
            .pulseaudio,
            config: """
                policy:
                  players:
                    - match: {bus-name: "mixer*"}
                      options: [mixWithOthers]
                    - match: {identity: "Fake ignored"}
                      ignore: true
                """)
        defer { desktop.stop() }
        _ = try desktop.fake("exclusive")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.exclusive" && $0.isActive } }, "\(desktop.bridgeLog)")
        _ = try desktop.fake("mixer")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.mixer" && $0.isActive && $0.options == .mixWithOthers } })
        #expect(
            desktop.hasApp { $0.app == "mpris.mixer" && $0.kind == .player && $0.policy?.hasPrefix("policy.players[1]") == true },
            "POL4")
        #expect(desktop.hasApp { $0.app == "mpris.exclusive" && $0.policy == "default: playback (PL1)" })
        _ = try desktop.fake("ignored")
        #expect(eventually { desktop.bridgeLog.contains("POL1: the device policy ignores this player") })
        #expect(!desktop.apps().contains("mpris.ignored"), "ignored: other audio")

        try desktop.daemon.reload(config: "policy:\n  players:\n    - match: {bus-name: x}\n      category: record\n")
        #expect(eventually { desktop.daemon.log.contains("the configuration was not reloaded") }, "\(desktop.daemon.log)")
        try desktop.daemon.reload(
            config: """
                policy:
                  players:
                    - match: {bus-name: "late*"}
                      options: [mixWithOthers]
                  streams:
                    - match: {role: alarm}
                      system: alarm
                """)
        #expect(eventually { desktop.daemon.log.contains("configuration reloaded") }, "\(desktop.daemon.log)")
        _ = try desktop.fake("late")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.late" && $0.isActive && $0.options == .mixWithOthers } })
        #expect(!desktop.fakeLog("exclusive").contains("status Paused"), "mixing players paused nobody")
        // The new table applies to the next stream too: an alarm-role stream is the system alarm.
        let alarm = try desktop.server.play(role: "alarm")
        defer { PulseFixture.end(alarm) }
        #expect(eventually { (try? desktop.snapshot().device.systemSessions) == [.alarm] }, "POL2 after SIGHUP")
    }

    @Test("PL1: a program on two bus connections, each owning one of its names (VLC's way), is one player")
    func oneProgramTwoConnections() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        let pid = try desktop.fake("twin", ["--two-connections"])
        #expect(eventually { desktop.apps().contains("mpris.twin") }, "\(desktop.bridgeLog)")
        #expect(
            eventually { (try? desktop.playerctl(["-l"]))?.contains("twin.instance\(pid)") == true }, "both names are on the bus")
        usleep(300_000)
        #expect(desktop.apps().filter { $0.hasPrefix("mpris.twin") } == ["mpris.twin"], "one app: \(desktop.apps())")
        #expect(desktop.hasApp { $0.app == "mpris.twin" && $0.isActive }, "playing: active, not interrupted by its twin")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.fakeLog("twin").contains("status Paused") }, "PL3: paused by the call")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { desktop.fakeLog("twin").split(separator: "\n").last?.hasPrefix("status Playing") == true },
            "PL4: played again after it")
        PulseFixture.end(pid)
        #expect(eventually { desktop.apps().isEmpty }, "gone with its process: \(desktop.apps())")
    }

    @Test(
        "PL5 (revision 5): a player that sends Seeked on every pause and play, as browsers do, is played again after a call; a real seek ends the claim"
    )
    func seekedAnnouncements() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        let browser = try desktop.fake("browserlike", ["--seeked-on-pause-play"])
        // Active before the call: a call that came first would refuse its playing (PL2) for good.
        #expect(eventually { desktop.hasApp { $0.app == "mpris.browserlike" && $0.isActive } }, "\(desktop.bridgeLog)")
        func last(_ line: String) -> Bool {
            desktop.fakeLog("browserlike").split(separator: "\n").last?.hasPrefix(line) == true
        }
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { last("status Paused") }, "PL3: paused by the call")
        usleep(300_000)  // the pause's Seeked has reached the bridge
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { last("status Playing") }, "PL4: its own Seeked was an announcement: played again. \(desktop.bridgeLog)")

        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { last("status Paused") }, "paused by the second call")
        usleep(300_000)
        kill(browser, SIGUSR1)  // the user seeks a minute ahead during the call
        #expect(eventually { last("seeked to") }, "the fake player seeked")
        usleep(300_000)
        try desktop.system(.systemSession(.call, begin: false))
        usleep(700_000)
        #expect(last("seeked to"), "PL5: a real seek ends the claim: not played again. \(desktop.fakeLog("browserlike"))")
    }

    @Test(
        "PL3, PL6 with a scripted player: one that cannot pause is stopped and played after; a slow or malformed one is other audio"
    )
    func scriptedPlayers() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        let stopper = try desktop.fake("stopper", ["--cannot-pause"])
        // Active before the call: a call that came first would refuse its playing (PL2) for good.
        #expect(eventually { desktop.hasApp { $0.app == "mpris.stopper" && $0.isActive } }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.fakeLog("stopper").contains("status Stopped") }, "PL3: Stop when it cannot pause")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { desktop.fakeLog("stopper").split(separator: "\n").last?.hasPrefix("status Playing") == true },
            "played again after the call")
        PulseFixture.end(stopper)
        #expect(eventually { !desktop.apps().contains("mpris.stopper") }, "gone with its process")

        _ = try desktop.fake("slow", ["--slow-pause", "1500"])
        #expect(eventually { desktop.hasApp { $0.app == "mpris.slow" && $0.isActive } })
        try desktop.system(.systemSession(.call, begin: true))
        #expect(
            eventually { !desktop.apps().contains("mpris.slow") }, "PL6: a Pause not answered within 1 s: other audio")
        #expect(desktop.bridgeLog.contains("governed as other audio from now on"), "logged")
        try desktop.system(.systemSession(.call, begin: false))

        _ = try desktop.fake("bad", ["--malformed-status"])
        #expect(eventually { desktop.bridgeLog.contains("org.mpris.MediaPlayer2.bad") }, "\(desktop.bridgeLog)")
        #expect(!desktop.apps().contains("mpris.bad"), "PL6: a malformed player is never an app")
    }

    @Test(
        "PL3, PL6 (revision 5): a player that can pause only after its first Play is paused, not stopped; one that exports its object late is governed as a player"
    )
    func abilitiesAndLateStarters() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        _ = try desktop.fake("vlclike", ["--status", "Stopped", "--can-pause-after-play"])
        #expect(eventually { desktop.apps().contains("mpris.vlclike") }, "\(desktop.bridgeLog)")
        _ = try desktop.playerctl(["-p", "vlclike", "play"])
        #expect(eventually { desktop.hasApp { $0.app == "mpris.vlclike" && $0.isActive } }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.fakeLog("vlclike").contains("status Paused") }, "PL3: paused, its position kept")
        #expect(
            !desktop.fakeLog("vlclike").split(separator: "\n").contains { $0.hasPrefix("status Stopped") },
            "never stopped: \(desktop.fakeLog("vlclike"))")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { desktop.fakeLog("vlclike").split(separator: "\n").last?.hasPrefix("status Playing") == true },
            "PL4: played again after the call. The player's log:\n\(desktop.fakeLog("vlclike"))\nthe bridge's:\n\(desktop.bridgeLog)"
        )

        _ = try desktop.fake("firefoxlike", ["--late-export", "1200"])
        #expect(eventually { desktop.fakeLog("firefoxlike").contains("exported") })
        #expect(
            eventually { desktop.hasApp { $0.app == "mpris.firefoxlike" && $0.isActive } },
            "PL6: governed once it answers. \(desktop.bridgeLog)")
        #expect(desktop.bridgeLog.contains("not ready yet"), "logged as not ready, not as faulty")
        #expect(!desktop.bridgeLog.contains("it stays other audio"), "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.fakeLog("firefoxlike").contains("status Paused") }, "PL3: a call pauses it")
        try desktop.system(.systemSession(.call, begin: false))
    }

    @Test(
        "PL8: headphones (or a Bluetooth device) out under a playing mpv: paused within 1 s, nothing heard from the speaker meanwhile; plugged back, still paused",
        arguments: [
            (ServerKind.pulseaudio, "device.form_factor=headphone"), (.pipewire, "device.form_factor=headphone"),
            (.pulseaudio, "device.bus=bluetooth"),
        ])
    func headphonesOut(_ kind: ServerKind, _ properties: String) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let phones = try desktop.server.load(sink: "phones", properties)
        let mpv = try desktop.mpv()
        func route() -> PortType? {
            (try? desktop.snapshot().apps.first { $0.player != nil })?.route.outputs.first?.type
        }
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        #expect(eventually { route()?.isPrivate == true }, "RT3: on the headphones (or the Bluetooth device)")
        usleep(500_000)
        let speaker = try desktop.server.recordMonitor(of: "speaker")
        let heard = Mutex<Double?>(nil)
        let listening = Thread { heard.withLock { $0 = speaker.level(over: 1.5) } }
        listening.start()
        usleep(100_000)
        let unplugged = Date()
        try desktop.server.unload(phones)
        #expect(eventually(within: 3) { desktop.status(mpv.name) == "Paused" }, "PL8: paused. \(desktop.bridgeLog)")
        let paused = Date().timeIntervalSince(unplugged)
        #expect(paused < 1, "paused \(paused) s after the unplug")
        #expect(eventually(within: 3) { heard.withLock { $0 } != nil })
        let level = heard.withLock { $0 } ?? 0
        // The tone plays at about -14 dBFS. The server moves the stream to the speaker the moment
        // the headphones go, before anyone outside it can act; our mute follows within a few tens
        // of ms (PipeWire applies it to the node a moment after answering): at most such a blip in
        // 1.5 s (-29 dBFS for 50 ms), where without PL8 mpv plays on at its full level.
        #expect(level < -29, "\(kind): the speaker heard \(level) dBFS while mpv was being paused")
        #expect(route() == .speaker)
        _ = try desktop.server.load(sink: "phones", properties)
        usleep(1_000_000)
        #expect(desktop.status(mpv.name) == "Paused", "PL8: nothing resumes it when the headphones come back")
    }

    @Test(
        "PL9: the bridge killed or stopped during a call and started again: the mpv it paused plays at the call's end; one the user seeked meanwhile stays paused",
        arguments: [SIGKILL, SIGTERM])
    func bridgeRestartKeepsClaims(_ signal: Int32) throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(mpv.name) == "Paused" }, "PL3")
        usleep(300_000)  // its position read, its claim kept
        try desktop.restartBridge(signal)
        #expect(eventually { desktop.bridgeLog.contains("a kept claim to resume a player stands") }, "\(desktop.bridgeLog)")
        #expect(eventually { desktop.daemonLog.contains("taken back (PL9)") }, "\(desktop.daemonLog)")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { desktop.status(mpv.name) == "Playing" }, "PL4 across the bridge's restart. \(desktop.bridgeLog)")

        // The user seeks while the bridge is away: the claim ends, mpv stays paused. (Active again
        // first: a call that came before its activation would refuse its playing, PL2.)
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } })
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(mpv.name) == "Paused" })
        usleep(300_000)
        try desktop.restartBridge(signal) {
            _ = try desktop.playerctl(["-p", mpv.name, "position", "5+"])  // within the 20 s tone
            usleep(300_000)
        }
        #expect(eventually { desktop.bridgeLog.contains("a kept claim to resume a player is dropped") }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: false))
        usleep(1_500_000)
        #expect(desktop.status(mpv.name) == "Paused", "the user's seek ended the claim")
    }

    @Test("PL9: a bridge that does not come back within the grace: the held player's app departs, its stream other audio")
    func heldPlayerReleased() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(mpv.name) == "Paused" })
        kill(desktop.bridgePID, SIGKILL)
        #expect(eventually { desktop.daemonLog.contains("its session held for its bridge (PL9)") }, "\(desktop.daemonLog)")
        usleep(400_000)
        #expect(desktop.apps().contains("mpris.mpv"), "held (its bridge's process is gone)")
        let grace = Double(Arbiter.heldPlayerGrace.components.seconds)
        #expect(eventually(within: grace + 5) { !desktop.apps().contains("mpris.mpv") }, "departed after the grace")
        #expect(eventually { desktop.daemonLog.contains("its bridge did not come back") }, "\(desktop.daemonLog)")
        try desktop.system(.systemSession(.call, begin: false))
    }
}
