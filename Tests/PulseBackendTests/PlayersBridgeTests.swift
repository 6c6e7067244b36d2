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
    /// A user's desktop in miniature: a session bus, a sound server, the daemon and the bridge.
    final class Desktop {
        let server: PulseFixture
        private(set) var daemon: FlappingServerTests.Daemon
        let busAddress: String
        private(set) var busPID: pid_t = 0
        private var children: [pid_t] = []
        private(set) var bridgePID: pid_t = 0
        let tone: String

        init(_ kind: ServerKind, config: String? = nil) throws {
            server = try PulseFixture(kind)
            busAddress = "unix:path=\(server.directory)/players-bus"
            tone = try PlaybackLevelTests.tone(server, seconds: 20, amplitude: 0.2, name: "podcast")
            do {
                daemon = try FlappingServerTests.Daemon(server: server.server, config: config)
                try startBus()
                try startBridge()
            } catch {
                server.stop()
                throw error
            }
        }

        /// The players bridge, its log in bridge.log (appended to when it is started again).
        func startBridge() throws {
            bridgePID = try spawn(
                [FlappingServerTests.executable("audiosession-players"), "--socket", daemon.socket, "--log-level", "debug"],
                log: "bridge.log", unblockingSignals: true)
            children.append(bridgePID)
        }

        /// PL9: the bridge stopped with a signal (SIGKILL: a crash; SIGTERM: an upgrade) and, after
        /// `meanwhile`, started again.
        func restartBridge(_ signal: Int32, _ meanwhile: () throws -> Void = {}) throws {
            kill(bridgePID, signal)
            var status: Int32 = 0
            waitpid(bridgePID, &status, 0)
            children.removeAll { $0 == bridgePID }
            try meanwhile()
            try startBridge()
        }

        /// The daemon killed (MS1) and, with `startAgain`, a new one on the same socket (MS2).
        func restartDaemon(_ startAgain: () throws -> Void = {}) throws {
            daemon.killProcess()
            try startAgain()
            daemon = try FlappingServerTests.Daemon(server: server.server, in: daemon.directory)
        }

        func startBus() throws {
            busPID = try spawn(["/usr/bin/dbus-daemon", "--session", "--nofork", "--address=\(busAddress)"], log: "bus.log")
            guard eventually({ access("\(server.directory)/players-bus", F_OK) == 0 }) else {
                throw PulseFixture.StartError(description: "the session bus did not start")
            }
        }

        func killBus() {
            PulseFixture.end(busPID)
            unlink("\(server.directory)/players-bus")  // a bus started again makes its socket anew
        }

        var bridgeLog: String { (try? String(contentsOfFile: "\(server.directory)/bridge.log", encoding: .utf8)) ?? "" }

        /// An mpv playing the tone in a loop; its MPRIS name is found by its pid, and it has
        /// played a moment (mpv announces its first seek, a `Seeked`, as playback starts). On
        /// PipeWire it plays through PipeWire's own protocol, as mpv does by default on a
        /// PipeWire desktop (its stream names its process only on its client).
        func mpv() throws -> (pid: pid_t, name: String) {
            let output = server.kind == .pipewire ? "--ao=pipewire" : "--ao=pulse"
            let pid = try spawn(
                ["/usr/bin/mpv", "--no-video", output, "--loop=inf", "--no-terminal", "--volume=100", tone], log: "mpv.log")
            children.append(pid)
            var name: String?
            let found = eventually(within: 15) {
                name = (try? playerctl(["-l"]))?.split(separator: "\n").map(String.init).first { playerPID($0) == pid }
                return name != nil
            }
            guard found, let name else { throw PulseFixture.StartError(description: "mpv \(pid) did not appear on the bus") }
            usleep(700_000)
            return (pid, name)
        }

        /// PL2: an mpv plays, then a second one starts and pauses it (both non-mixable).
        func secondMPVTakesOver() throws -> (first: (pid: pid_t, name: String), second: (pid: pid_t, name: String)) {
            let first = try mpv()
            #expect(eventually { hasApp { $0.isActive } })
            let second = try mpv()
            #expect(eventually { status(first.name) == "Paused" }, "the first paused: \(bridgeLog)")
            return (first, second)
        }

        /// The scriptable fake player (Tests/C/fake-mpris-player.c) as NAME with options; what
        /// it prints goes to `fake-NAME.log`.
        func fake(_ name: String, _ options: [String] = []) throws -> pid_t {
            let pid = try spawn([PlayersBridgeTests.fakePlayer(), name] + options, log: "fake-\(name).log")
            children.append(pid)
            return pid
        }

        func fakeLog(_ name: String) -> String {
            (try? String(contentsOfFile: "\(server.directory)/fake-\(name).log", encoding: .utf8)) ?? ""
        }

        func apps() -> [String] { ((try? snapshot().apps) ?? []).map(\.app.rawValue) }

        /// Whether the daemon has an app like that now.
        func hasApp(where matches: (AppSnapshot) -> Bool) -> Bool { (try? snapshot().apps.contains(where: matches)) == true }

        /// The pid behind an MPRIS name (the bus's own answer).
        func playerPID(_ name: String) -> pid_t? {
            let text = try? run(
                "/usr/bin/dbus-send",
                [
                    "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.mpris.MediaPlayer2.\(name)",
                ])
            return text?.split(separator: " ").last.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }

        func status(_ name: String) -> String { (try? playerctl(["-p", name, "status"])) ?? "?" }

        @discardableResult
        func playerctl(_ arguments: [String]) throws -> String { try run("/usr/bin/playerctl", arguments) }

        private func run(_ executable: String, _ arguments: [String]) throws -> String {
            try PulseFixture.run(executable, arguments, environment: environment)
        }

        var environment: [String: String] {
            [
                "DBUS_SESSION_BUS_ADDRESS": busAddress, "PULSE_SERVER": server.server, "XDG_RUNTIME_DIR": server.directory,
                "HOME": server.directory, "PATH": "/usr/bin:/bin",
            ].merging(extraEnvironment) { _, extra in extra }
        }

        /// More for the programs started from now on (a browser's DISPLAY).
        var extraEnvironment: [String: String] = [:]

        /// Starts a program of the desktop (ended with it by `stop()`), its output in `log`.
        func start(_ arguments: [String], log: String) throws -> pid_t {
            let pid = try spawn(arguments, log: log)
            children.append(pid)
            return pid
        }

        /// - Parameter unblockingSignals: the program starts with no signal blocked (the bridge: it
        ///   must see SIGTERM as systemd sends it). Otherwise it inherits the test thread's mask,
        ///   which blocks SIGTERM: mpv then outlives the session bus (its MPRIS plugin's bus
        ///   connection ends the process with SIGTERM when the bus goes), as the bus tests need.
        func spawn(_ arguments: [String], log: String, unblockingSignals: Bool = false) throws -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "\(server.directory)/\(log)", O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            if unblockingSignals {
                var none = sigset_t()
                sigemptyset(&none)
                posix_spawnattr_setsigmask(&attributes, &none)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            }
            var pid: pid_t = 0
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            guard posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, envp) == 0 else {
                throw PulseFixture.StartError(description: "cannot start \(arguments[0])")
            }
            return pid
        }

        var transport: AudioSessionTransport { .daemon(socketPath: daemon.socket) }

        func system(_ event: SystemEvent) throws { try SystemController(transport: transport).perform(event) }

        func snapshot() throws -> DeviceSnapshot { try daemon.snapshot() }

        /// The volume (%) of the server's stream of a process.
        func streamVolume(of pid: pid_t) -> Int? {
            let line = streamBlock(of: pid)?.split(separator: "\n").first { $0.contains("Volume:") && $0.contains("%") }
            return line.flatMap { $0.split(separator: "/").dropFirst().first }
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces).dropLast()) }
        }

        /// Whether the server's stream of a process is muted (nil: it has none).
        func streamMuted(of pid: pid_t) -> Bool? {
            streamBlock(of: pid).map { $0.contains("Mute: yes") }
        }

        /// `pactl list sink-inputs`'s block for the stream of a process.
        func streamBlock(of pid: pid_t) -> String? {
            guard let text = try? server.pactl(["list", "sink-inputs"]), let clients = try? server.pactl(["list", "clients"])
            else {
                return nil
            }
            // The stream names its process, or only its client does (PipeWire's own protocol).
            let process = "application.process.id = \"\(pid)\""
            let client = clients.components(separatedBy: "Client #").first { $0.contains(process) }?.split(separator: "\n").first
            return text.components(separatedBy: "Sink Input #").first { block in
                block.contains(process) || client.map({ block.contains("Client: \($0)\n") }) == true
            }
        }

        func stop() {
            for pid in children.reversed() + [busPID] { PulseFixture.end(pid) }
            daemon.stop()
            server.stop()
        }
    }

    /// Tests/C/fake-mpris-player.c, compiled with the system's C compiler and libsystemd.
    static func fakePlayer() throws -> String {
        try PulseFixture.compile("fake-mpris-player", with: "libsystemd", extra: ["-Wno-unused-parameter"])
    }

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
