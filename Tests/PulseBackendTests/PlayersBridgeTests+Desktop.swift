import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

/// The desktop the players bridge's tests run on: a private session bus, a headless sound server,
/// the daemon and the bridge, and the fake MPRIS player program.
extension PlayersBridgeTests {
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
}
