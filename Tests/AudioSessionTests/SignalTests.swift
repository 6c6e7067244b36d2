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
        let daemon = try ChildDaemon.start(["--log-level", "info"])
        defer { daemon.stop() }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: daemon.transport)
        try music.setCategory(.playback)
        try music.setActive(true)
        kill(daemon.pid, SIGHUP)
        #expect(daemon.process.waitForLine(containing: "SIGHUP"), "\(daemon.process.output)")
        #expect(daemon.process.process.isRunning)
        #expect(try music.status().isActive, "the session survived: the connection was kept")
        music.close()
    }

    @Test(
        "SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM stop the daemon gracefully: exit 0, socket removed, logged",
        arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM])
    func terminationSignalsStopGracefully(signal: Int32) throws {
        let daemon = try ChildDaemon.start(["--log-level", "info"])
        defer { daemon.stop() }
        kill(daemon.pid, signal)
        #expect(daemon.process.waitForLine(containing: "stopped"), "\(daemon.process.output)")
        daemon.process.process.waitUntilExit()
        #expect(daemon.process.process.terminationReason == .exit && daemon.process.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket file is removed")
    }
}
