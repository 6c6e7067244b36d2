import AudioSession
import AudioSessionDaemon
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Signals (issue 18): SIGHUP never kills the daemon nor drops its clients; every other
/// catchable termination signal stops it gracefully — socket removed, stop logged.
@Suite("Signals", .serialized)
struct SignalTests {
    @Test("SIGHUP is logged and changes nothing: the daemon runs on and its app keeps its session")
    func hangupKeepsRunning() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.path + "/socket"
        let daemon = try ChildProcess(Package.executable("audiosessiond"), ["--socket", socket, "--log-level", "info"])
        defer { daemon.kill9() }
        try waitUntilListening(socket, daemon)
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .daemon(socketPath: socket))
        try music.setCategory(.playback)
        try music.setActive(true)
        kill(daemon.pid, SIGHUP)
        #expect(daemon.waitForLine(containing: "SIGHUP"), "\(daemon.output)")
        #expect(daemon.process.isRunning)
        #expect(try music.status().isActive, "the session survived: the connection was kept")
        music.close()
    }

    @Test(
        "SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM stop the daemon gracefully: exit 0, socket removed, logged",
        arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM])
    func terminationSignalsStopGracefully(signal: Int32) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.path + "/socket"
        let daemon = try ChildProcess(Package.executable("audiosessiond"), ["--socket", socket, "--log-level", "info"])
        defer { daemon.kill9() }
        try waitUntilListening(socket, daemon)
        kill(daemon.pid, signal)
        #expect(daemon.waitForLine(containing: "stopped"), "\(daemon.output)")
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed")
    }
}
