import AudioSessionDaemon
import AudioSessionRuntime
import Foundation

/// An `audiosessiond` started for one command (`run --daemon`) on a socket in a new private
/// directory, stopped with SIGTERM when done.
struct PrivateDaemon {
    let process: Process
    let directory: String
    var socketPath: String { directory + "/socket" }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the daemon that sits beside this executable and waits (bounded) until it listens.
    static func start() throws -> PrivateDaemon {
        var template = Array((NSTemporaryDirectory() + "/audiosession-run-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw StartError(description: "cannot make a temporary directory") }
        let directory = String(cString: made)
        let executable = daemonExecutable()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", directory + "/socket", "--permission-prompt", "ask", "--log-level", "error"]
        do {
            try process.run()
        } catch {
            throw StartError(description: "cannot start \(executable): \(error.localizedDescription)")
        }
        let daemon = PrivateDaemon(process: process, directory: directory)
        let deadline = Date().addingTimeInterval(10)
        while !SocketPath.isListening(daemon.socketPath) {
            guard process.isRunning, Date() < deadline else {
                daemon.stop()
                throw StartError(description: "\(executable) did not start listening on \(daemon.socketPath)")
            }
            usleep(2000)
        }
        return daemon
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
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
