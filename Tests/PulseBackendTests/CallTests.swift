import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Testing

@testable import PulseBackend

/// §18 end to end (issue 37): a program of ours that never heard of us records from a source and
/// plays, in one process (Tests/C/fake-call.c), on a real server with the daemon, the players
/// bridge and a real mpv — the call the microphone reveals.
@Suite("Calls of programs that never heard of us (§18), on real servers", .serialized)
struct CallTests {
    /// Tests/C/fake-call.c, compiled with the system's C compiler and libpulse-simple.
    static func fakeCall() throws -> String { try PulseFixture.compile("fake-call", with: "libpulse-simple", extra: ["-lm"]) }

    /// A desktop whose scripted MPRIS player "music" plays (it makes no sound: the counts of its
    /// status lines are what a test reads).
    static func desktopWithMusic(_ kind: ServerKind) throws -> PlayersBridgeTests.Desktop {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        _ = try desktop.fake("music")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.music" && $0.isActive } }, "\(desktop.bridgeLog)")
        return desktop
    }

    /// The call's app, as status lists it.
    static func call(_ desktop: PlayersBridgeTests.Desktop) -> AppSnapshot? {
        (try? desktop.snapshot().apps)?.first { $0.kind == .call }
    }

    @Test(
        "CL2-CL5, CL7: a program recording and playing pauses mpv, is never muted, is listed as a call, and mpv plays again after its hangover",
        arguments: ServerKind.allCases)
    func callPausesAndResumes(_ kind: ServerKind) throws {
        // A desktop's policy (OA5 mix): the program's stream, other audio again after the call,
        // plays on beside the music.
        let desktop = try PlayersBridgeTests.Desktop(kind, config: "policy:\n  other-audio: mix\n")
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        let started = Date()
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "--name", "Meeting", "record", "3000", "quiet", "3500"], log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 5) { desktop.status(mpv.name) == "Paused" }, "CL3, PL3: mpv paused. \(desktop.bridgeLog)")
        let paused = Date().timeIntervalSince(started)
        #expect(paused < 2.5, "paused \(paused) s after the program started (after-ms 500)")
        let call = Self.call(desktop)
        #expect(call?.app.rawValue == "call.fake-call", "CL3: call.BINARY: \(String(describing: call))")
        #expect(call?.player == "Meeting" && call?.pid == caller, "CL7: its program and pid: \(String(describing: call))")
        #expect(call.map { $0.category == .playAndRecord && $0.mode == .voiceChat && $0.isOutputRunning } == true)
        #expect(
            call?.streams.contains { $0.hasPrefix("playback") } == true
                && call?.streams.contains { $0.hasPrefix("capture") } == true,
            "CL7: its streams: \(String(describing: call?.streams))")
        // CL4: its playback is never muted while the call lasts.
        var mutedSeen = false
        for _ in 0..<15 {
            if desktop.streamMuted(of: caller) == true { mutedSeen = true }
            usleep(100_000)
        }
        #expect(!mutedSeen, "CL4: the call's playback was muted")
        // CL5: it stops recording; mpv plays again within the hangover (2 s) and a second.
        #expect(eventually(within: 4) { desktop.log("call.log").contains("capture closed") })
        let closed = Date()
        #expect(eventually(within: 4) { desktop.status(mpv.name) == "Playing" }, "PL4: mpv plays again. \(desktop.bridgeLog)")
        let resumed = Date().timeIntervalSince(closed)
        #expect(resumed < 3.2 && resumed > 1.5, "played again \(resumed) s after the last recording (hangover 2 s)")
        #expect(eventually { Self.call(desktop) == nil }, "the call's session departed")
        #expect(
            (try? desktop.snapshot().device.otherAudio.contains { $0.audio.name == "Meeting" && !$0.isMuted }) == true,
            "its stream is other audio again, and mixes with the music (OA5)")
        #expect(desktop.streamMuted(of: caller) == false, "not muted on the server")
        #expect(
            eventually { desktop.daemonLog.contains("call began (CL2)") && desktop.daemonLog.contains("call ended (CL5)") },
            "CL7: logged at info. \(desktop.daemonLog)")
    }

    @Test(
        "CL5: a capture closed and reopened within the hangover keeps the call (one Pause, one Play); CL2: flapping that never records for after-ms is no call",
        arguments: ServerKind.allCases)
    func reopenKeepsTheCall(_ kind: ServerKind) throws {
        let desktop = try Self.desktopWithMusic(kind)
        defer { desktop.stop() }
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "record", "1500", "quiet", "800", "record", "1500", "quiet", "3000"],
            log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 10) { desktop.log("call.log").contains("done") }, "\(desktop.log("call.log"))")
        #expect(eventually { desktop.fakeLog("music").split(separator: "\n").last?.hasPrefix("status Playing") == true })
        let changes = desktop.fakeLog("music").split(separator: "\n").filter { $0.hasPrefix("status ") }
        #expect(changes.count == 2, "one Pause and one Play: \(changes)")

        // Capture on and off every 100 ms for 3 s: never recording 500 ms at once.
        var flapping = ["--source", "mic"]
        for _ in 0..<15 { flapping += ["record", "100", "quiet", "100"] }
        let flapper = try desktop.spawn([try Self.fakeCall()] + flapping, log: "flap.log")
        defer { PulseFixture.end(flapper) }
        #expect(eventually(within: 10) { desktop.log("flap.log").contains("done") }, "\(desktop.log("flap.log"))")
        usleep(300_000)
        let after = desktop.fakeLog("music").split(separator: "\n").filter { $0.hasPrefix("status ") }
        #expect(after.count == 2, "flapping paused nobody: \(after)\n\(desktop.daemonLog)")
    }

    @Test(
        "CL1, CL5: a program that only records, or that records a monitor while it plays, changes nothing",
        arguments: ServerKind.allCases)
    func recordingAloneIsNoCall(_ kind: ServerKind) throws {
        let desktop = try Self.desktopWithMusic(kind)
        defer { desktop.stop() }
        let recorder = try desktop.spawn(
            [try Self.fakeCall(), "--no-playback", "--source", "mic", "record", "1500"], log: "recorder.log")
        defer { PulseFixture.end(recorder) }
        let screen = try desktop.spawn(
            [try Self.fakeCall(), "--source", "speaker.monitor", "record", "1500"], log: "screen.log")
        defer { PulseFixture.end(screen) }
        #expect(
            eventually(within: 6) { desktop.log("recorder.log").contains("done") && desktop.log("screen.log").contains("done") })
        #expect(!desktop.fakeLog("music").contains("status Paused"), "nobody paused: \(desktop.fakeLog("music"))")
        #expect(!desktop.daemonLog.contains("call began"), "no call")
    }

    @Test(
        "CL4 (revision 6): a program recording from a real input is never muted as other audio, from its first sample, before after-ms makes it a call — while a plain player is",
        arguments: ServerKind.allCases)
    func recordingProgramNeverMuted(_ kind: ServerKind) throws {
        let desktop = try Self.desktopWithMusic(kind)  // a non-mixable player plays: other audio is muted (OA4)
        defer { desktop.stop() }
        // The control: a program that only plays is muted as other audio.
        let plain = try desktop.spawn(["/usr/bin/pacat", "--playback", "--raw", "/dev/zero"], log: "pacat.log")
        defer { PulseFixture.end(plain) }
        #expect(eventually { desktop.streamMuted(of: plain) == true }, "OA4: other audio is muted here")
        // A softphone opening its microphone as the call connects, then playing.
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--capture-first", "--source", "mic", "record", "2500", "quiet", "300"], log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 5) { desktop.streamMuted(of: caller) != nil }, "its playback appeared")
        var samples: [Bool] = []
        for _ in 0..<30 {  // every 50 ms (and what asking the server takes) from its first moment, past after-ms
            if let muted = desktop.streamMuted(of: caller) { samples.append(muted) }
            usleep(50_000)
        }
        #expect(samples.count >= 15 && !samples.contains(true), "CL4: never muted: \(samples)\n\(desktop.daemonLog)")
    }

    @Test(
        "CL3, I4: during a system call the program's call is refused and its playback muted until the system call ends",
        arguments: ServerKind.allCases)
    func refusedDuringASystemCall(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        try desktop.system(.systemSession(.call, begin: true))
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "record", "4000", "quiet", "500"], log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 4) { Self.call(desktop) != nil }, "the call is hosted")
        #expect(Self.call(desktop)?.isOutputRunning == false, "A3: refused")
        #expect(eventually { desktop.streamMuted(of: caller) == true }, "its playback muted while refused")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(eventually { Self.call(desktop)?.isOutputRunning == true }, "it starts once the system call ends")
        #expect(eventually { desktop.streamMuted(of: caller) == false }, "and its playback is heard")
    }
}

extension CallTests {
    @Test(
        "CL6: policy.calls reloaded on SIGHUP — detection off, a bad table refused (the previous kept), a program ignored by name"
    )
    func reloadedPolicy() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio, config: "policy:\n  calls:\n    detect: false\n")
        defer { desktop.stop() }
        func callOnce(_ log: String) throws -> Bool {
            let caller = try desktop.spawn([try Self.fakeCall(), "--source", "mic", "record", "1200"], log: log)
            defer { PulseFixture.end(caller) }
            let found = eventually(within: 4) { Self.call(desktop) != nil }
            _ = eventually(within: 5) { desktop.log(log).contains("done") }
            _ = eventually(within: 5) { Self.call(desktop) == nil }
            return found
        }
        #expect(try !callOnce("off.log"), "detect: false: no call")
        try desktop.daemon.reload(config: "policy:\n  calls:\n    hangover-ms: -1\n")
        #expect(eventually { desktop.daemonLog.contains("hangover-ms (CL5) must be within") }, "\(desktop.daemonLog)")
        #expect(try !callOnce("bad.log"), "a bad table changes nothing: detection still off")
        try desktop.daemon.reload(
            config: "policy:\n  calls:\n    programs:\n      - match: {binary: fake-call}\n        ignore: true\n")
        usleep(300_000)
        #expect(try !callOnce("ignored.log"), "ignored by its binary")
        #expect(eventually { desktop.daemonLog.contains("the policy ignores it (CL6)") }, "\(desktop.daemonLog)")
        try desktop.daemon.reload(config: "policy:\n  calls: {}\n")
        usleep(300_000)
        #expect(try callOnce("on.log"), "the defaults: a call. \(desktop.daemonLog)")
    }

    @Test(
        "CL6 system: call — a detected call is the system call (I4): music paused, other audio muted, the program's own streams never"
    )
    func detectedSystemCall() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio, config: "policy:\n  calls:\n    system: call\n")
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        let game = try desktop.server.play(role: "game", application: "game")
        defer { PulseFixture.end(game) }
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "record", "2500", "quiet", "500"], log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 5) { (try? desktop.snapshot().device.systemSessions) == [.call] }, "\(desktop.daemonLog)")
        #expect(eventually(within: 5) { desktop.status(mpv.name) == "Paused" }, "I4: the music paused")
        #expect(eventually { desktop.streamMuted(of: game) == true }, "I4: other audio muted")
        var muted = false
        for _ in 0..<10 {
            if desktop.streamMuted(of: caller) == true { muted = true }
            usleep(100_000)
        }
        #expect(!muted, "CL4: the program's own playback is never muted")
        #expect(Self.call(desktop) == nil, "no hosted session: the system call stands for it")
        #expect(eventually(within: 6) { (try? desktop.snapshot().device.systemSessions) == [] }, "ended after the hangover")
        #expect(eventually(within: 4) { desktop.status(mpv.name) == "Playing" }, "the music plays again")
    }

    @Test(
        "CL5, MS3: a call whose program vanishes ends after its hangover; the sound server restarting mid-call ends it at once — nothing stays interrupted"
    )
    func callsEndCleanly() throws {
        let pulse = try PulseFixture(.pulseaudio)
        var server: PulseFixture? = pulse
        defer { server?.stop() }
        let arbiter = try Arbiter(configuration: .init(profile: .desktop), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: RealServerTests.quiet)
        defer { backend.close() }
        let music = AudioSession(appID: "music", transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        try music.setActive(true)
        try music.reportOutputRunning(true)
        // A program that vanishes mid-call (killed): the call ends after the hangover.
        let first = try pulse.spawn([try Self.fakeCall(), "--source", "mic", "record", "30000"])
        #expect(eventually(within: 5) { (try? music.status().isInterrupted) == true }, "interrupted by the call")
        PulseFixture.end(first)
        #expect(eventually(within: 5) { (try? music.status().isInterrupted) == false }, "the call ended")
        #expect(backend.calls.calls.isEmpty)
        // The server restarting mid-call (MS3): every call ends with it.
        try music.setActive(true)
        let second = try pulse.spawn([try Self.fakeCall(), "--source", "mic", "record", "30000"])
        defer { PulseFixture.end(second) }
        #expect(eventually(within: 5) { (try? music.status().isInterrupted) == true }, "interrupted by the second call")
        pulse.crash()
        #expect(eventually { backend.lostSince != nil })
        #expect(eventually { backend.calls.calls.isEmpty }, "MS3: the call ended with the server")
        server = try PulseFixture(.pulseaudio, in: pulse.directory)
        #expect(eventually { backend.lostSince == nil })
        #expect(eventually { (try? music.status().isInterrupted) == false }, "MS2: nothing stays interrupted")
        #expect(!arbiter.deviceStatus.otherAudio.contains { $0.isMuted }, "nothing stays muted")
        #expect(backend.calls.calls.isEmpty && arbiter.hostedOrigin(of: "call.fake-call") == nil, "no call is left")
    }
}

extension PlayersBridgeTests.Desktop {
    /// A file the desktop's programs wrote in its directory.
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(server.directory)/\(name)", encoding: .utf8)) ?? ""
    }

    /// The daemon's log.
    var daemonLog: String { daemon.log }
}
