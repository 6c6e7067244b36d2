import AudioSessionDaemon
import AudioSessionRuntime
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// An `audiosessiond` started for one command (`run --daemon`) on a socket in a new private
/// directory, stopped with SIGTERM when done.
struct PrivateDaemon {
    let pid: pid_t
    let directory: String
    var socketPath: String { directory + "/socket" }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the daemon that sits beside this executable and waits (bounded) until it listens.
    static func start() throws -> PrivateDaemon {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((temporary + "/audiosession-run-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "cannot make a temporary directory") }
        let directory = String(cString: made)
        let executable = daemonExecutable()
        let arguments = [executable, "--socket", directory + "/socket", "--permission-prompt", "ask", "--log-level", "error"]
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawnp(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw StartError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        let daemon = PrivateDaemon(pid: pid, directory: directory)
        let deadline = ContinuousClock.now + .seconds(10)
        while !SocketPath.isListening(daemon.socketPath) {
            guard daemon.isRunning, ContinuousClock.now < deadline else {
                daemon.stop()
                throw StartError(description: "\(executable) did not start listening on \(daemon.socketPath)")
            }
            usleep(2000)
        }
        return daemon
    }

    /// Whether the daemon has not exited (it is not reaped here, so `stop` still can).
    var isRunning: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == 0
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `audiosessiond` beside this executable, else the one on PATH.
    static func daemonExecutable() -> String {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let beside = me.deletingLastPathComponent().appendingPathComponent("audiosessiond").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let sibling = URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent("audiosessiond").path
            if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        }
        return "audiosessiond"
    }
}
