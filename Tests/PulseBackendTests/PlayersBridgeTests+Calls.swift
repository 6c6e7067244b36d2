import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

/// §16 with calls, second players, a daemon that comes late and a bus that dies (PL2–PL5, MS1).
extension PlayersBridgeTests {
    @Test(
        "PL3, PL4: a call pauses the playing mpv and its end resumes it; an mpv the user paused before the call stays paused",
        arguments: ServerKind.allCases)
    func callPausesAndResumes(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(
            eventually { desktop.hasApp { $0.player != nil && $0.isActive } },
            "\(kind): mpv is an active app: \(desktop.bridgeLog)")
        #expect(try desktop.snapshot().device.otherAudio.isEmpty, "its stream is its own, not other audio")

        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(mpv.name) == "Paused" }, "\(kind): paused by the call")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { desktop.status(mpv.name) == "Playing" }, "\(kind): resumed after it: \(desktop.bridgeLog)")

        try desktop.playerctl(["-p", mpv.name, "pause"])
        #expect(eventually { desktop.hasApp { $0.player != nil && !$0.isActive } })
        try desktop.system(.systemSession(.call, begin: true))
        try desktop.system(.systemSession(.call, begin: false))
        usleep(500_000)
        #expect(desktop.status(mpv.name) == "Paused", "\(kind): a player the user paused never starts after the call")
    }

    @Test(
        "PL2: a second mpv pauses the first (both non-mixable); the first is not resumed when the second pauses",
        arguments: ServerKind.allCases)
    func secondPlayerPausesTheFirst(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let (first, second) = try desktop.secondMPVTakesOver()
        #expect(desktop.status(second.name) == "Playing")
        try desktop.playerctl(["-p", second.name, "pause"])
        usleep(800_000)
        #expect(desktop.status(first.name) == "Paused", "\(kind): not resumed by the second's pause")
    }

    @Test(
        "PL4 with I2: a call after a second mpv took over resumes only the second, not the first it had paused",
        arguments: ServerKind.allCases)
    func callAfterASecondPlayer(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let (first, second) = try desktop.secondMPVTakesOver()
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(second.name) == "Paused" }, "\(kind): the call paused the second")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { desktop.status(second.name) == "Playing" }, "\(kind): the second resumed: \(desktop.bridgeLog)")
        usleep(800_000)
        #expect(desktop.status(first.name) == "Paused", "\(kind): the first stays paused")
        #expect(desktop.status(second.name) == "Playing", "\(kind): and the second plays on")
    }

    @Test("MS1, MS2: players that play while no daemon answers are left playing, and governed once the daemon is there")
    func playersBeforeTheDaemon() throws {
        let desktop = try Desktop(.pulseaudio)
        defer { desktop.stop() }
        var mpv: (pid: pid_t, name: String)?
        try desktop.restartDaemon {
            mpv = try desktop.mpv()  // found by the bridge while no daemon listens (as at login)
            usleep(500_000)
            #expect(desktop.status(mpv?.name ?? "") == "Playing", "not paused for want of a daemon: \(desktop.bridgeLog)")
        }
        let name = try #require(mpv?.name)
        #expect(
            eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "governed once it is there: \(desktop.bridgeLog)")
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.status(name) == "Paused" }, "a call pauses it")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { desktop.status(name) == "Playing" }, "and its end resumes it")
    }

    @Test("PL2, D1: our non-mixable app activating pauses mpv; a ducking app ducks mpv's stream", arguments: ServerKind.allCases)
    func appsGovernPlayers(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.streamVolume(of: mpv.pid) == 100 })
        let navigation = AudioSession(appID: "navigation", transport: desktop.transport)
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        // The duck level is an amplitude factor (0.2); pactl's percent is on the server's cubic scale.
        let ducked = Int((pow(0.2, 1.0 / 3) * 100).rounded())
        #expect(
            eventually { desktop.streamVolume(of: mpv.pid) == ducked },
            "ducked to the duck level: \(desktop.streamVolume(of: mpv.pid) ?? -1)%, not \(ducked)%")
        try navigation.setActive(false, options: .notifyOthersOnDeactivation)
        #expect(eventually { desktop.streamVolume(of: mpv.pid) == 100 }, "whole again")
        navigation.close()

        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: desktop.transport)
        try music.setCategory(.playback)
        try music.setActive(true)
        #expect(eventually { desktop.status(mpv.name) == "Paused" }, "paused by our non-mixable app")
        music.close()
    }

    @Test("PL2, PL5: an mpv played during a call is paused at once and not resumed after it", arguments: ServerKind.allCases)
    func playedDuringACall(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.isActive } })
        try desktop.playerctl(["-p", mpv.name, "pause"])
        #expect(eventually { desktop.hasApp { !$0.isActive && $0.player != nil } })
        try desktop.system(.systemSession(.call, begin: true))
        try desktop.playerctl(["-p", mpv.name, "play"])
        #expect(eventually { desktop.bridgeLog.contains("playing refused") }, "\(desktop.bridgeLog)")
        #expect(eventually { desktop.status(mpv.name) == "Paused" }, "paused at once")
        try desktop.system(.systemSession(.call, begin: false))
        usleep(500_000)
        #expect(desktop.status(mpv.name) == "Paused", "nothing resumes it")
    }

    @Test(
        "PL6: the session bus killed: the daemon and apps run on, the players' streams are other audio; the bus back, players are found again",
        arguments: ServerKind.allCases)
    func busKilled(_ kind: ServerKind) throws {
        let desktop = try Desktop(kind)
        defer { desktop.stop() }
        _ = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil } })
        desktop.killBus()
        #expect(eventually { (try? desktop.snapshot().apps.isEmpty) == true }, "the player's app departed")
        #expect(
            eventually { (try? desktop.snapshot().device.otherAudio.count) == 1 },
            "its stream is other audio: \(String(describing: try? desktop.snapshot().device.otherAudio)) \(desktop.daemonLog.split(separator: "\n").filter { !$0.contains("connection=#") && !$0.contains("monitor") }.suffix(40).joined(separator: "\n"))"
        )
        let music = AudioSession(appID: "music", transport: desktop.transport)
        try music.setCategory(.playback)  // the daemon serves
        music.close()

        // The bus back (at the same address): the bridge connects again and finds players.
        try desktop.startBus()
        _ = try desktop.fake("after", ["--status", "Paused"])
        #expect(eventually { desktop.apps().contains("mpris.after") }, "found on the new bus: \(desktop.bridgeLog)")
    }
}
