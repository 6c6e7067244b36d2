import AudioSession
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// T1, T2 against a real `audiosessiond` in the system trust mode, with clients of other uids
/// started through `setpriv` (the tests run as root, as CI does), and SIGHUP reloading the
/// configuration file under a connected app.
@Suite("System trust mode, end to end", .serialized)
struct SystemModeDaemonTests {
    /// A directory every uid can read (the binaries are copied there: the checkout may sit in a
    /// directory only root can enter), holding the configuration and the manifests.
    final class Device {
        let path: String
        init() throws {
            var template = Array("/tmp/audiosession-device-XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template)!)
            chmod(path, 0o755)
            for name in ["audiosession", "music-player"] {
                try Self.copyExecutable(Package.executable(name), to: "\(path)/\(name)")
            }
            mkdir(path + "/apps", 0o755)
            write("apps/radio.yaml", "app: radio\ncapabilities: [background-audio]\n")
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Copies a program with a close-on-exec descriptor: a child another test forks meanwhile
        /// must not inherit it open for writing, or running the copy fails with "Text file busy".
        static func copyExecutable(_ source: String, to target: String) throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
            let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
            guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
            defer { close(fd) }
            fchmod(fd, 0o755)  // whatever the umask: every uid runs it
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        }

        var config: String { path + "/audiosessiond.yaml" }

        func write(_ name: String, _ text: String) {
            _ = FileManager.default.createFile(atPath: "\(path)/\(name)", contents: Data(text.utf8))
            chmod("\(path)/\(name)", 0o644)
        }

        func configure(controllers: [Int]) {
            write(
                "audiosessiond.yaml",
                """
                trust:
                  mode: system
                  controllers: {users: \(controllers)}
                  monitors: {groups: [4242]}
                  manifests: \(path)/apps
                """)
        }

        /// Runs one of the copied binaries as `uid` (with `groups`, else none) to its end.
        func run(
            as uid: Int, groups: [Int] = [], _ name: String, _ arguments: [String], environment: [String: String] = [:]
        ) throws -> (status: Int32, output: String) {
            let child = try start(as: uid, groups: groups, name, arguments, environment: environment)
            child.waitUntilExit()  // the exit and every line of its output
            return (child.process.terminationStatus, child.output)
        }

        func start(
            as uid: Int, groups: [Int] = [], _ name: String, _ arguments: [String], environment: [String: String] = [:]
        ) throws -> ChildProcess {
            let groupOption = groups.isEmpty ? "--clear-groups" : "--groups=\(groups.map(String.init).joined(separator: ","))"
            return try ChildProcess(
                "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", groupOption, "--", "\(path)/\(name)"] + arguments,
                environment: environment)
        }
    }

    /// The daemon on `device`'s configuration, its socket directory opened to every uid.
    static func daemon(_ device: Device) throws -> ChildDaemon {
        let daemon = try ChildDaemon.start(["--config", device.config, "--log-level", "info"])
        chmod(daemon.directory.path, 0o755)
        return daemon
    }

    @Test(
        "T1: another uid controls only when configured, monitors only by a configured group; SIGHUP reloads under a live app; a bad file changes nothing"
    )
    func controllersMonitorsAndReload() throws {
        let device = try Device()
        device.configure(controllers: [1500])
        let daemon = try Self.daemon(device)
        defer { daemon.stop() }
        let socket = ["--socket", daemon.socket]
        let radio = AudioSession(appID: "radio", capabilities: .backgroundAudio, transport: daemon.transport)
        try radio.setCategory(.playback)
        try radio.setActive(true)

        let allowed = try device.run(as: 1500, "audiosession", ["system", "lock"] + socket)
        #expect(allowed.status == 0, "\(allowed.output)")
        let refused = try device.run(as: 1501, "audiosession", ["system", "unlock"] + socket)
        #expect(refused.status != 0 && refused.output.contains("not a configured controller"), "\(refused.output)")
        let monitor = try device.run(as: 1502, groups: [4242], "audiosession", ["status"] + socket)
        #expect(monitor.status == 0 && monitor.output.contains("radio"), "\(monitor.output)")
        let stranger = try device.run(as: 1503, "audiosession", ["status"] + socket)
        #expect(stranger.status != 0 && stranger.output.contains("not a configured monitor"), "\(stranger.output)")

        device.configure(controllers: [1500, 1501])
        kill(daemon.pid, SIGHUP)
        #expect(daemon.process.waitForLine(containing: "configuration reloaded"), "\(daemon.process.output)")
        let added = try device.run(as: 1501, "audiosession", ["system", "unlock"] + socket)
        #expect(added.status == 0, "\(added.output)")
        #expect(try radio.status().isActive, "the app's connection and session were kept")

        device.write("audiosessiond.yaml", "trust:\n  mode: system\n  controlers: {users: [1501]}\n")
        kill(daemon.pid, SIGHUP)
        #expect(daemon.process.waitForLine(containing: "not reloaded"), "\(daemon.process.output)")
        #expect(daemon.process.output.contains("unknown key 'controlers'"))
        let kept = try device.run(as: 1501, "audiosession", ["system", "lock"] + socket)
        #expect(kept.status == 0, "the rules before the bad file still hold: \(kept.output)")
        radio.close()
    }

    @Test("--trust system without a configuration file: only root controls; the socket is open to every user's apps")
    func trustOption() throws {
        let device = try Device()
        let daemon = try ChildDaemon.start(["--trust", "system", "--log-level", "error"])
        defer { daemon.stop() }
        chmod(daemon.directory.path, 0o755)
        var info = stat()
        #expect(
            stat(daemon.socket, &info) == 0 && info.st_mode & 0o777 == 0o666,
            "socket mode \(String(info.st_mode & 0o777, radix: 8))")
        let refused = try device.run(as: 1500, "audiosession", ["system", "lock", "--socket", daemon.socket])
        #expect(refused.status != 0 && refused.output.contains("not a configured controller"), "\(refused.output)")
        let environment = ["AUDIOSESSION_SOCKET": daemon.socket, "AUDIOSESSION_APP_ID": "radio"]
        let app = try device.start(as: 1600, "music-player", [], environment: environment)
        #expect(app.waitForLine(containing: "music: playing"), "\(app.output)")
        app.kill9()
    }

    @Test(
        "T1, T2: a hello beyond its manifest gets ent?; an app id stays its first uid's after it left, refused without naming it")
    func manifestsAndAppIDOwnership() throws {
        let device = try Device()
        device.configure(controllers: [])
        let daemon = try Self.daemon(device)
        defer { daemon.stop() }
        let environment = { (app: String) in ["AUDIOSESSION_SOCKET": daemon.socket, "AUDIOSESSION_APP_ID": app] }

        var greedyEnvironment = environment("game")
        greedyEnvironment["AUDIOSESSION_CAPABILITIES"] = "background-audio"
        let greedy = try device.run(as: 1702, "music-player", [], environment: greedyEnvironment)
        #expect(
            greedy.status != 0 && greedy.output.contains("ent?") && greedy.output.contains("has no manifest"), "\(greedy.output)")

        let first = try device.start(as: 1700, "music-player", [], environment: environment("notes"))
        #expect(first.waitForLine(containing: "music: playing"), "\(first.output)")
        first.kill9()
        let taker = try device.run(as: 1701, "music-player", [], environment: environment("notes"))
        #expect(taker.status != 0 && taker.output.contains("belongs to another user"), "\(taker.output)")
        #expect(!taker.output.contains("1700"), "the refusal names the holder: \(taker.output)")
        let back = try device.start(as: 1700, "music-player", [], environment: environment("notes"))
        #expect(back.waitForLine(containing: "music: playing"), "\(back.output)")
        back.kill9()
    }
}
