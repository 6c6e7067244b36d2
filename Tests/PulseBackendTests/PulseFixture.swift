import AudioSessionMedia
import Foundation

/// The sound servers the backend is tested on: PulseAudio 16, and PipeWire 0.3 through
/// pipewire-pulse (with its session bus and WirePlumber).
enum ServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case pulseaudio, pipewire
    var description: String { rawValue }
}

/// A private, headless sound server for one test: its own runtime directory (0700) and socket,
/// with a null sink `speaker` and a source `mic` standing for the internal speaker and
/// microphone (NOTES.md). Devices come and go with `pactl load-module` / `unload-module`.
/// Stopped, with every process it started, by `stop()`.
///
/// Started with posix_spawn in a process group of its own, not Foundation's Process:
/// pulseaudio closes every inherited descriptor at start, which Foundation takes for the
/// child's exit, and it then blocks its run loop in wait4 (and every later Process with it).
final class PulseFixture: Sendable {
    let directory: String
    let kind: ServerKind
    let pid: pid_t
    var server: String { kind == .pulseaudio ? "unix:\(directory)/native" : "unix:\(directory)/pulse/native" }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts a server; `in` an existing directory, one that was there before (MS3: the same
    /// socket path, as a restarted server has). On PipeWire the speaker and microphone are made
    /// after the server accepts clients (as WirePlumber makes a desktop's), `devicesAfter`
    /// seconds later when given (a loaded machine's WirePlumber).
    init(_ kind: ServerKind = .pulseaudio, in existing: String? = nil, devicesAfter delay: Double = 0) throws {
        var template = Array("/tmp/audiosession-pulse-XXXXXX".utf8CString)
        directory = existing ?? String(cString: mkdtemp(&template)!)
        self.kind = kind
        let arguments: [String]
        switch kind {
        case .pulseaudio:
            // The speaker and microphone before the socket, as a desktop's server has its devices
            // before it accepts clients (a client that connects at once, MS3, finds them).
            // Without shared memory (clients' audio comes through the socket): PulseAudio 16.1
            // aborts when a client that played through shared memory ends while the monitor is
            // recorded (the mic is the monitor) — `memblock_replace_import()`'s assertion on the
            // pool's count of imported blocks (its I/O thread, freeing one of the client's
            // blocks, counts it out before taking the import's lock; the main thread, freeing the
            // import under that lock, counts it out again), or "Cannot send block reference with
            // non-registered memfd ID". The tests end pacat while it plays dozens of times a run:
            // the server died mid-test in 5 of ~30 fresh clones (POL2 heard media services
            // lost). Two pacats killed over and over beside a recorder of the mic ended such a
            // server within 5, 120 and 175 rounds; without shared memory it lived through 600.
            arguments = [
                "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--log-target=stderr", "--log-level=error",
                "--disable-shm=yes",
                "-L", "module-null-sink sink_name=speaker sink_properties=device.form_factor=internal",
                "-L", "module-remap-source master=speaker.monitor source_name=mic source_properties=device.form_factor=internal",
                "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(directory)/native",
                "-L", "module-stream-restore",  // saves volumes per media role, as a desktop's PulseAudio does
                // A device plugged becomes the default output, as on most desktops (RT13: the
                // default is the user's choice, and the server may make it); null sinks count.
                "-L", "module-switch-on-connect ignore_virtual=no",
            ]
        case .pipewire:
            let script = """
                pipewire > "$XDG_RUNTIME_DIR/pipewire.log" 2>&1 &
                sleep 0.2
                wireplumber > "$XDG_RUNTIME_DIR/wireplumber.log" 2>&1 &
                pipewire-pulse > "$XDG_RUNTIME_DIR/pipewire-pulse.log" 2>&1 &
                wait
                """
            try script.write(toFile: directory + "/start.sh", atomically: true, encoding: .utf8)
            arguments = ["/usr/bin/dbus-run-session", "--", "/bin/sh", directory + "/start.sh"]
        }
        let environment = ["XDG_RUNTIME_DIR=\(directory)", "HOME=\(directory)", "PATH=/usr/bin:/bin"]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        // Its output to a file of its own, never the test's: a server left running after a crashed
        // test process must not hold the test command's output open (CI waited for it until its timeout).
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/server.log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, envp) }
        }
        guard spawned == 0 else { throw StartError(description: "cannot start \(kind): \(String(cString: strerror(spawned)))") }
        self.pid = pid
        let deadline = Date().addingTimeInterval(20)
        while (try? pactl(["info"])) == nil {
            guard kill(pid, 0) == 0, Date() < deadline else {
                stop()
                throw StartError(description: "\(kind) did not start in \(directory)")
            }
            usleep(20_000)
        }
        if kind == .pipewire {
            usleep(useconds_t(delay * 1_000_000))
            try pactl(["load-module", "module-null-sink", "sink_name=speaker", "sink_properties=device.form_factor=internal"])
            try pactl([
                "load-module", "module-remap-source", "master=speaker.monitor", "source_name=mic",
                "source_properties=device.form_factor=internal",
            ])
            try pactl(["load-module", "module-switch-on-connect", "ignore_virtual=no"])
        }
        // PipeWire creates the nodes a moment after the module loads.
        while !(try pactl(["list", "sources", "short"])).contains("\tmic\t") {
            guard Date() < deadline else { throw StartError(description: "\(kind): the source mic did not appear") }
            usleep(20_000)
        }
    }

    /// Runs pactl against this server and returns its output.
    @discardableResult
    func pactl(_ arguments: [String]) throws -> String {
        try Self.run(
            "/usr/bin/pactl", arguments, environment: ["PULSE_SERVER": server, "XDG_RUNTIME_DIR": directory, "HOME": directory])
    }

    /// Tests/C/NAME.c compiled with the system's C compiler against a pkg-config package, warnings
    /// as errors, into .build/debug/NAME; its path.
    static func compile(_ name: String, with package: String, extra: [String] = []) throws -> String {
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", package], environment: [:])
        return try compile(name, flags: flags.split(separator: " ").map(String.init) + extra)
    }

    /// Tests/C/NAME.c compiled with these compiler flags, warnings as errors, into .build/debug/NAME.
    static func compile(_ name: String, flags: [String]) throws -> String {
        let output = FlappingServerTests.executable(name)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("C/\(name).c").path
        // Into a file of this process, then renamed over the program: the test command's other
        // lane may be compiling or running the same program meanwhile.
        let made = "\(output).\(getpid()).new"
        _ = try run(
            "/usr/bin/cc", ["-Wall", "-Wextra", "-Werror", "-o", made, source] + flags, environment: ["PATH": "/usr/bin:/bin"])
        // Executable whatever the umask was while cc ran (an in-process socket test of another
        // suite may have narrowed it for a moment: the socket is born with its mode).
        chmod(made, 0o755)
        guard rename(made, output) == 0 else {
            throw StartError(description: "cannot put \(name) in place: \(String(cString: strerror(errno)))")
        }
        return output
    }

    /// Runs a tool to its end and returns its output (trimmed); fails unless it exits 0.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StartError(description: "\(executable) \(arguments) failed") }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Loads a null sink (or source) with device properties (at `rate` Hz when given); returns the
    /// module index.
    ///
    /// A plugged device becomes the default output, as module-switch-on-connect makes it on
    /// PulseAudio (HDMI excepted, its default blocklist). PipeWire's module of that name leaves
    /// null sinks alone, so there the fixture sets the default as the module would.
    func load(sink name: String, _ properties: String, rate: Int? = nil) throws -> String {
        let module = try pactl(
            ["load-module", "module-null-sink", "sink_name=\(name)", "sink_properties=\(properties)"]
                + (rate.map { ["rate=\($0)"] } ?? []))
        if kind == .pipewire, !properties.contains("form_factor=tv"),
            try pactl(["list", "short", "modules"]).contains("module-switch-on-connect")
        {
            let deadline = Date().addingTimeInterval(5)
            while !(try pactl(["list", "sinks", "short"])).contains("\t\(name)\t"), Date() < deadline { usleep(20_000) }
            // Until the server says it is the default: WirePlumber may not know the new node yet
            // when pipewire-pulse lists it, and a default set before then can be lost (a PlaybackLevelTests
            // run on PipeWire kept the speaker for 10 s). Asked again every half second.
            var taken = false
            for _ in 0..<10 where !taken {
                try pactl(["set-default-sink", name])
                for _ in 0..<25 where !taken {
                    taken = (try pactl(["get-default-sink"])) == name
                    if !taken { usleep(20_000) }
                }
            }
            guard taken else {
                throw StartError(description: "PipeWire did not take \(name) as its default sink: \(try pactl(["info"]))")
            }
        }
        return module
    }

    /// A source with properties: a remap of the speaker's monitor (module-null-source takes none).
    func load(source name: String, _ properties: String) throws -> String {
        try pactl([
            "load-module", "module-remap-source", "master=speaker.monitor", "source_name=\(name)",
            "source_properties=\(properties)",
        ])
    }

    func unload(_ module: String) throws { try pactl(["unload-module", module]) }

    /// A foreign app playing silence (`pacat` from /dev/zero) with a media role; kill the pid to stop it.
    func play(role: String, application: String? = nil) throws -> pid_t {
        try spawn(
            ["/usr/bin/pacat", "--playback", "--raw", "--property=media.role=\(role)", "/dev/zero"]
                + (application.map { ["--property=application.name=\($0)"] } ?? []))
    }

    /// A foreign app playing a sound file: `paplay` on PulseAudio, `pw-play` (PipeWire's own
    /// protocol, seen through pipewire-pulse) on PipeWire. Kill the pid to stop it.
    func play(file: String, role: String? = nil) throws -> pid_t {
        let arguments =
            kind == .pulseaudio
            ? ["/usr/bin/paplay"] + (role.map { ["--property=media.role=\($0)"] } ?? []) + [file]
            : ["/usr/bin/pw-play", "--media-role=\(role ?? "Music")", file]
        return try spawn(arguments)
    }

    /// Listens to a sink's monitor until stopped.
    ///
    /// On PulseAudio the sink is then suspended and resumed once: an idle null sink renders
    /// ahead by its default latency (2 s), and a stream joining it is not rewound, so its first
    /// two seconds would wait behind that silence. Resumed, the sink's clock restarts now at the
    /// recording's low latency (10 ms), which it keeps while the recording lasts.
    func recordMonitor(of sink: String, channels: Int = 1, sampleRate: Int = 48_000) throws -> LevelMeter {
        let recording = try LevelMeter(server: server, source: "\(sink).monitor", channels: channels, sampleRate: sampleRate)
        if kind == .pulseaudio {
            try pactl(["suspend-sink", sink, "1"])
            try pactl(["suspend-sink", sink, "0"])
        }
        return recording
    }

    /// Starts a client of this server, its output discarded.
    func spawn(_ arguments: [String]) throws -> pid_t {
        let environment = ["PULSE_SERVER=\(server)", "XDG_RUNTIME_DIR=\(directory)", "HOME=\(directory)"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, argv[0]!, &actions, nil, argv, envp) }
        }
        guard spawned == 0 else { throw StartError(description: "cannot start \(arguments[0])") }
        return pid
    }

    /// Ends a player at once (pacat drains its stream on SIGTERM, which may never end) — only
    /// while it is still a child of ours not yet reaped: this machine's pids wrap at 32,768, and
    /// the suite starts tens of thousands of processes (every pactl is one), so a pid ended twice
    /// (a child ended in a test, then again by its desktop's stop) may by then be another test's
    /// server. (A sound server of a test went away mid-test, 'Connection refused'; issue 60.)
    static func end(_ pid: pid_t) {
        guard isLiveChild(pid) else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Whether `pid` is a child of this process that has not been reaped: then it cannot have been
    /// reused, and signalling it reaches it. One that has just ended is reaped here (and is no more).
    static func isLiveChild(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// The server's view of the playback streams: whether muted and the first channel's dB.
    func streams() throws -> [(muted: Bool, decibels: Double?)] {
        var found: [(Bool, Double?)] = []
        var muted = false
        for line in try pactl(["list", "sink-inputs"]).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Mute:") { muted = text.hasSuffix("yes") }
            if text.hasPrefix("Volume:") { found.append((muted, Self.decibels(text))) }
        }
        return found
    }

    /// The server's account of an app's own stream (the one carrying `audiosession.app`): the
    /// sink it plays on, whether muted or corked, and its first channel's volume in dB.
    func ownStream(of app: String) throws -> (sink: String, muted: Bool, corked: Bool, decibels: Double?)? {
        let sinks = try names(of: "sinks")
        for block in try pactl(["list", "sink-inputs"]).components(separatedBy: "Sink Input #").dropFirst()
        where block.contains("audiosession.app = \"\(app)\"") {
            var sink = "?"
            var muted = false
            var corked = false
            var decibels: Double?
            for line in block.split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("Sink:") { sink = sinks[text.dropFirst(5).trimmingCharacters(in: .whitespaces)] ?? "?" }
                if text.hasPrefix("Mute:") { muted = text.hasSuffix("yes") }
                if text.hasPrefix("Corked:") { corked = text.hasSuffix("yes") }
                if text.hasPrefix("Volume:") { decibels = Self.decibels(text) }
            }
            return (sink, muted, corked, decibels)
        }
        return nil
    }

    /// The first channel's dB of a pactl `Volume:` line
    /// ("Volume: front-left: 38339 /  58% / -13.98 dB,   front-right: …").
    static func decibels(_ line: String) -> Double? {
        let first = line.split(separator: ",").first ?? ""
        return first.split(separator: "/").last.flatMap {
            Double($0.replacingOccurrences(of: "dB", with: "").trimmingCharacters(in: .whitespaces))
        }
    }

    /// A sink's or source's (`kind`) first channel's raw volume (65536 = 100%), as pactl reads it
    /// ("Volume: front-left: 19661 /  30% / -31.37 dB, …").
    func volume(of kind: String, _ name: String) throws -> Int? {
        let line = try pactl(["get-\(kind)-volume", name])
        return line.split(separator: "/").first?.split(separator: " ").last.flatMap { Int($0) }
    }

    /// Each channel's volume of a sink or source (`pactl get-sink-volume`: "65536 / 100% / …").
    func channelVolumes(of kind: String, _ name: String) throws -> [Int] {
        let line = try pactl(["get-\(kind)-volume", name]).split(separator: "\n").first ?? ""
        var values: [Int] = []
        let words = line.split(separator: " ")
        for (index, word) in words.enumerated() where index + 1 < words.count && words[index + 1] == "/" {
            if let value = Int(word) { values.append(value) }
        }
        return values
    }

    /// The last lines of each log the server's processes write (PipeWire's three, or
    /// PulseAudio's), for a failing test to show what the server said.
    var logs: String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { name in
            let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
            return "--- \(name)\n" + text.split(separator: "\n").suffix(30).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The server's sinks or sources (`kind`), name by index, as pactl lists them.
    func names(of kind: String) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try pactl(["list", kind, "short"]).split(separator: "\n").map {
                let fields = $0.split(separator: "\t")
                return (String(fields[0]), String(fields[1]))
            })
    }

    func stop() {
        crash()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills the server as a crash would (SIGKILL; PipeWire's daemons and bus together) and
    /// leaves its directory for `init(_:in:)` to start it again.
    func crash() {
        // Only a server still ours: a second stop or crash must not reach a group whose number
        // came round again (see `end`). If it ended by itself, say how: a test's server going
        // away mid-test is then explained in the test's output.
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
            let how =
                (status & 0x7f) == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            FileHandle.standardError.write(
                Data(
                    "PulseFixture: the \(kind) server (pid \(pid)) in \(directory) had ended before its stop: it \(how)\n\(log)\n"
                        .utf8))
        }
        guard reaped == 0 || reaped == pid else { return }  // already reaped: not ours to signal any more
        kill(-pid, SIGKILL)  // the whole group: dbus-run-session's bus and PipeWire's daemons too
        if reaped == 0 { waitpid(pid, &status, 0) }
    }
}

/// A NULL-terminated array of C strings for posix_spawn, alive during `body`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
