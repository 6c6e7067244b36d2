import AudioSession
import AudioSessionDaemon
import AudioSessionRuntime
import Foundation
import Logging
import Synchronization

/// Paths of this package (tests run after `swift build`, so the executables exist).
enum Package {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func executable(_ name: String) -> String {
        root.appendingPathComponent(".build/debug/\(name)").path
    }
}

/// A new 0700 directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/audiosession-test-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// An arbiter served on a real socket inside the test process.
struct SocketFixture {
    let directory: TemporaryDirectory
    let arbiter: Arbiter
    let server: SocketServer
    var socketPath: String { server.path }
    var transport: AudioSessionTransport { .daemon(socketPath: socketPath) }

    static func start(
        profile: DeviceProfile = .iphone, logger: Logger = .quiet, limits: DaemonLimits = DaemonLimits(),
        trust: TrustPolicy = .user
    ) async throws -> SocketFixture {
        let directory = TemporaryDirectory()
        let arbiter = try Arbiter(configuration: .init(profile: profile, trust: trust), logger: logger)
        let server = try await SocketServer.start(
            path: directory.path + "/socket", arbiter: arbiter, logger: logger, limits: SharedLimits(limits))
        return SocketFixture(directory: directory, arbiter: arbiter, server: server)
    }

    private init(directory: TemporaryDirectory, arbiter: Arbiter, server: SocketServer) {
        self.directory = directory
        self.arbiter = arbiter
        self.server = server
    }

    func stop() async {
        await server.stop()
        arbiter.closeAll()
        directory.remove()
    }
}

/// Notifications of one session, waited for with a bound (never a blind sleep).
final class Mailbox: Sendable {
    private let items = Mutex<[SessionNotification]>([])
    private let signal = DispatchSemaphore(value: 0)

    init(_ session: AudioSession) {
        session.addNotificationHandler { [self] notification in
            items.withLock { $0.append(notification) }
            signal.signal()
        }
    }

    /// The next notification, or `nil` after `seconds`.
    func next(within seconds: Double = 10) -> SessionNotification? {
        guard signal.wait(timeout: .now() + seconds) == .success else { return nil }
        return items.withLock { $0.removeFirst() }
    }

    /// The next notification matching `predicate`, skipping others; `nil` after `seconds`.
    func next(within seconds: Double = 10, where predicate: (SessionNotification) -> Bool) -> SessionNotification? {
        let deadline = Date().addingTimeInterval(seconds)
        while let notification = next(within: max(0, deadline.timeIntervalSinceNow)) {
            if predicate(notification) { return notification }
        }
        return nil
    }
}

/// A child process whose output lines can be awaited.
final class ChildProcess: Sendable {
    let process: Process
    private let lines = Mutex<[String]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let pending = Mutex("")
    /// Signalled once the output has been read to its end (every line in `lines`).
    private let drained = DispatchSemaphore(value: 0)

    init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        try process.run()
        // A plain thread reading to EOF (Foundation's readabilityHandler has crashed in
        // libdispatch here when the child was killed).
        let fd = pipe.fileHandleForReading.fileDescriptor
        let reader = Thread { [self, pipe] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                receive(String(decoding: buffer[0..<count], as: UTF8.self))
            }
            _ = pipe  // keeps the descriptor open until EOF
            finish()
        }
        reader.start()
    }

    private func receive(_ text: String) {
        let complete = pending.withLock { pending -> [String] in
            pending += text
            var parts = pending.components(separatedBy: "\n")
            pending = parts.removeLast()
            return parts
        }
        lines.withLock { $0 += complete }
        for _ in complete { signal.signal() }
    }

    /// At the end of the output: a last line without its newline is a line too.
    private func finish() {
        let last = pending.withLock { pending in
            defer { pending = "" }; return pending
        }
        if !last.isEmpty {
            lines.withLock { $0.append(last) }
            signal.signal()
        }
        drained.signal()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits until the process has exited and its output has been read to the end (a reader
    /// that lags behind the exit would otherwise leave `output` short), at most `seconds` for
    /// the output after the exit.
    func waitUntilExit(outputWithin seconds: Double = 10) {
        process.waitUntilExit()
        _ = drained.wait(timeout: .now() + seconds)
    }

    /// Waits (bounded) for an output line containing `text`; returns whether it came.
    func waitForLine(containing text: String, within seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = 0
        while true {
            let all = lines.withLock { $0 }
            if all[seen...].contains(where: { $0.contains(text) }) { return true }
            seen = all.count
            guard signal.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else { return false }
        }
    }

    var output: String { lines.withLock { $0.joined(separator: "\n") } }

    func kill9() {
        // Not once it has ended: pids come round again on this machine (32,768), and a pid reaped
        // may be another test's process by now.
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}

extension Logger {
    /// A logger that drops everything (tests never bootstrap the logging system).
    static var quiet: Logger { Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }) }
}

/// Keeps what is logged through `logger`, so a test can check a refusal was logged with its reason.
final class LogCapture: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    /// Whether a warning (or worse) was logged whose message and metadata contain every text.
    func warned(_ texts: String...) -> Bool {
        entries.withLock { entries in
            entries.contains { entry in
                let whole =
                    entry.message + " "
                    + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                return entry.level >= .warning && texts.allSatisfy { whole.contains($0) }
            }
        }
    }

    fileprivate func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(Entry(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}

/// Waits (bounded, 20 s) until a child daemon listens; throws with its output if it died.
func waitUntilListening(_ socket: String, _ daemon: ChildProcess) throws {
    let deadline = Date().addingTimeInterval(20)
    while !SocketPath.isListening(socket) {
        guard Date() < deadline, daemon.process.isRunning else { throw SessionError(.unspecified, daemon.output) }
        usleep(2000)
    }
}

/// A process's CPU time so far, in clock ticks (user + system, /proc/PID/stat).
func cpuTicks(of pid: Int32) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// How often each thread of a process was switched in so far (voluntary and not), by thread
/// id, from /proc/PID/task/*/status: each wake-up of a thread counts one.
func contextSwitches(of pid: Int32) -> [String: Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var switches: [String: Int] = [:]
    for task in tasks {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
        for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
            switches[task, default: 0] += Int(line.split(separator: "\t").last ?? "") ?? 0
        }
    }
    return switches
}

/// The wake-ups between two `contextSwitches` readings (a thread born meanwhile counts in full).
func wakeUps(from before: [String: Int], to after: [String: Int]) -> Int {
    after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
}

/// `audiosessiond` in a child process, on a socket in a new private directory, listening.
/// `stop()` kills it and removes the directory.
struct ChildDaemon {
    let directory: TemporaryDirectory
    let process: ChildProcess
    var socket: String { directory.path + "/socket" }
    var pid: Int32 { process.pid }
    var transport: AudioSessionTransport { .daemon(socketPath: socket) }

    /// Starts the daemon with `arguments` after its socket; `shell` (a bash command line, with the
    /// daemon's path as `$0` and its arguments after) starts it under limits such as `ulimit`.
    static func start(_ arguments: [String] = ["--log-level", "error"], shell: String? = nil) throws -> ChildDaemon {
        let directory = TemporaryDirectory()
        let daemonArguments = ["--socket", directory.path + "/socket"] + arguments
        let process: ChildProcess
        do {
            process =
                if let shell {
                    try ChildProcess("/bin/bash", ["-c", shell, Package.executable("audiosessiond")] + daemonArguments)
                } else {
                    try ChildProcess(Package.executable("audiosessiond"), daemonArguments)
                }
        } catch {
            directory.remove()
            throw error
        }
        let daemon = ChildDaemon(directory: directory, process: process)
        do {
            try waitUntilListening(daemon.socket, process)
        } catch {
            daemon.stop()
            throw error
        }
        return daemon
    }

    func stop() {
        process.kill9()
        directory.remove()
    }
}
