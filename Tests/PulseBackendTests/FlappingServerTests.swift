import AudioSession
import AudioSessionWire
import Foundation
import Testing

/// MS3 (issue 26) with the real daemon: `audiosessiond --backend pulse` while its server is
/// killed and started again, over and over.
@Suite("The daemon while its sound server comes and goes (MS3)", .serialized)
struct FlappingServerTests {
    /// `audiosessiond --backend pulse` on a server, its log in a file of its socket's directory.
    final class Daemon {
        let directory: String
        let pid: pid_t
        var socket: String { directory + "/socket" }
        var log: String { (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? "" }

        /// With `config`, the daemon reads that configuration file (`reload(config:)` changes it).
        /// In `directory`, a daemon started again where one was killed (its socket path kept).
        init(server: String, config: String? = nil, in directory: String? = nil) throws {
            var template = Array("/tmp/audiosession-daemon-XXXXXX".utf8CString)
            self.directory = directory ?? String(cString: mkdtemp(&template)!)
            let directory = self.directory
            let executable = FlappingServerTests.executable("audiosessiond")
            var arguments = [
                executable, "--backend", "pulse", "--pulse-server", server, "--socket", directory + "/socket", "--log-level",
                "info",
            ]
            if let config {
                try Self.write(config, to: directory + "/audiosessiond.yaml")
                arguments += ["--config", directory + "/audiosessiond.yaml"]
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, directory + "/log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var pid: pid_t = 0
            let pointers = arguments.map { strdup($0) } + [nil]
            defer { pointers.forEach { free($0) } }
            guard posix_spawn(&pid, executable, &actions, nil, pointers, environ) == 0 else {
                throw PulseFixture.StartError(description: "cannot start \(executable)")
            }
            self.pid = pid
            guard eventually(within: 20, { access(directory + "/socket", F_OK) == 0 }) else {
                stop()
                throw PulseFixture.StartError(description: "the daemon did not listen: \(log)")
            }
        }

        /// A new configuration file, and SIGHUP.
        func reload(config: String) throws {
            try Self.write(config, to: directory + "/audiosessiond.yaml")
            kill(pid, SIGHUP)
        }

        private static func write(_ text: String, to path: String) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o644)  // the daemon reads only a file nobody else may change
        }

        func stop() {
            PulseFixture.end(pid)
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// The daemon gone (MS1), its directory kept for one started again in it.
        func killProcess() {
            PulseFixture.end(pid)
            unlink(socket)
        }

        func count(_ text: String) -> Int { log.components(separatedBy: text).count - 1 }

        /// Open descriptors, threads and resident memory (KiB), from /proc.
        var resources: (descriptors: Int, threads: Int, rss: Int) {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.flatMap {
                Int($0.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
            return (descriptors, threads, rss ?? -1)
        }

        /// What each of its descriptors is (`/proc/PID/fd`'s links), for a failure's message.
        var descriptorTargets: [String] {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return fds.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { fd in
                "\(fd)→" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?")
            }
        }

        /// User and system CPU time so far, in clock ticks (/proc/PID/stat fields 14 and 15).
        var cpuTicks: Int {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : -1
        }

        func snapshot() throws -> DeviceSnapshot {
            try SystemController(transport: .daemon(socketPath: socket), role: .monitor).snapshot()
        }
    }

    @Test(
        "MS3: ten kills in a row: each loss logged once, the last server governed, no descriptor, thread or memory left behind",
        arguments: ServerKind.allCases)
    func flapping(_ kind: ServerKind) throws {
        var server = try PulseFixture(kind)
        defer { server.stop() }
        let daemon = try Daemon(server: server.server)
        defer { daemon.stop() }
        #expect(eventually { daemon.count("connected to the sound server") == 1 }, "\(daemon.log)")
        usleep(300_000)
        let before = daemon.resources

        // As fast as the server can be started again: the daemon may miss a short-lived one.
        let started = ContinuousClock.now
        for _ in 1...10 {
            server.crash()
            server = try PulseFixture(kind, in: server.directory)
        }
        print("\(kind): 10 kills and restarts in \(ContinuousClock.now - started)")
        #expect(eventually { (try? daemon.snapshot().mediaServicesLostSince) == nil }, "\(kind): governing the last server")
        // The return is logged once the server's listing is applied, a moment after the daemon
        // governs it again: the log is read until it has the last return (or stays short).
        var (lost, back) = (0, 0)
        let balanced = eventually {
            (lost, back) = (daemon.count("sound server lost"), daemon.count("sound server back"))
            return (1...10).contains(lost) && back == lost
        }
        print("\(kind): \(lost) losses logged, \(back) returns")
        #expect(balanced, "\(kind): each loss logged once, each return once: \(daemon.log)")

        let radio = try server.play(role: "music")
        defer { PulseFixture.end(radio) }
        #expect(
            eventually { (try? daemon.snapshot().device.otherAudio.count) == 1 }, "\(kind): a new stream is other audio")
        usleep(500_000)
        let after = daemon.resources
        print(
            "\(kind): descriptors \(before.descriptors) → \(after.descriptors), threads \(before.threads) → \(after.threads), RSS \(before.rss) → \(after.rss) KiB"
        )
        // One client connection more (the snapshot's monitor may still be closing): no leak per restart.
        #expect(
            after.descriptors <= before.descriptors + 2,
            "\(kind): descriptors \(before.descriptors) → \(after.descriptors): \(daemon.descriptorTargets)")
        #expect(after.threads <= before.threads + 1, "\(kind): threads \(before.threads) → \(after.threads)")
        #expect(after.rss < before.rss + 4096, "\(kind): RSS \(before.rss) → \(after.rss) KiB")
    }

    @Test("MS3: while the server is gone, status says since when, and the dead server's streams are gone from it")
    func statusWhileLost() throws {
        let server = try PulseFixture(.pulseaudio)
        defer { server.stop() }
        let daemon = try Daemon(server: server.server)
        defer { daemon.stop() }
        let radio = try server.play(role: "music")
        defer { PulseFixture.end(radio) }
        #expect(eventually { (try? daemon.snapshot().device.otherAudio.count) == 1 })
        server.crash()
        #expect(eventually { (try? daemon.snapshot().mediaServicesLostSince) != nil }, "\(daemon.log)")
        // The loss is told first (MS1), the dead server's streams leave the device just after.
        #expect(
            eventually {
                let device = try? daemon.snapshot().device
                return device?.otherAudio.isEmpty == true && device?.systemSessions.isEmpty == true
            }, "the dead server's streams gone: \(String(describing: try? daemon.snapshot().device))")

        let status = Process()
        status.executableURL = URL(fileURLWithPath: FlappingServerTests.executable("audiosession"))
        status.arguments = ["status", "--socket", daemon.socket]
        let pipe = Pipe()
        status.standardOutput = pipe
        try status.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        status.waitUntilExit()
        #expect(text.contains("MEDIA SERVICES LOST since"), "\(text)")
        #expect(text.contains("other audio 0"), "\(text)")
        // (Logged just after the status says so.)
        #expect(
            eventually { daemon.count("sound server lost") >= 1 } && daemon.count("sound server lost") == 1,
            "logged once: \(daemon.log)")

        // Waiting for the server costs next to nothing: a timer every 2 s at most, no busy loop.
        usleep(2_000_000)
        let ticks = daemon.cpuTicks
        usleep(4_000_000)
        let used = daemon.cpuTicks - ticks
        print("CPU while the server is gone: \(used) ticks in 4 s")
        #expect(used < 20, "the daemon used \(used) ticks in 4 s waiting for its server (a busy loop uses 400)")
    }

    static func executable(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/\(name)").path
    }
}
