import AudioSession
import AudioSessionServer
import AudioSessionWire
import Foundation
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Processes dying: clients killed with -9 while they duck and interrupt others, the daemon
/// killed under its clients (MS1, MS2), and two processes claiming one app id.
@Suite("Faults across processes", .serialized)
struct FaultTests {
    @Test("A killed client that ducked and interrupted others leaves nobody ducked or interrupted")
    func killedDuckerAndInterrupter() async throws {
        let fixture = try await SocketFixture.start()
        defer { Task { await fixture.stop() } }
        let radio = AudioSession(appID: "radio", capabilities: .backgroundAudio, transport: fixture.transport)
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: fixture.transport)
        let musicMail = Mailbox(music)
        try radio.setCategory(.playback, options: .mixWithOthers)
        try radio.setActive(true)
        try music.setCategory(.playback)
        try music.setActive(true)

        let environment = ["AUDIOSESSION_SOCKET": fixture.socketPath]
        let navigation = try ChildProcess(
            Package.executable("phone-call"), ["--duck", "600"], environment: environment.merging(["AUDIOSESSION_APP_ID": "nav"]) { $1 })
        #expect(navigation.waitForLine(containing: "ducking others"), "\(navigation.output)")
        #expect(try radio.status().outputGain == 0.2)  // D1

        let call = try ChildProcess(
            Package.executable("phone-call"), ["600"], environment: environment.merging(["AUDIOSESSION_APP_ID": "call"]) { $1 })
        #expect(call.waitForLine(containing: "others interrupted"), "\(call.output)")
        #expect(musicMail.next(where: { if case .interruptionBegan = $0 { true } else { false } }) != nil)

        call.kill9()
        // A6: the dead interrupter's interruption ends with shouldResume, told by an event.
        #expect(musicMail.next(where: { $0 == .interruptionEnded(shouldResume: true) }) != nil)
        navigation.kill9()
        try music.waitForPendingNotifications()
        let deadline = Date().addingTimeInterval(10)
        while try radio.status().outputGain != 1, Date() < deadline { try radio.waitForPendingNotifications() }
        #expect(try radio.status().outputGain == 1)
        #expect(fixture.arbiter.engine.activeApps == ["radio"])
        radio.close()
        music.close()
    }

    @Test("Two processes claiming one app id: the second is refused")
    func secondProcessWithTheSameAppID() async throws {
        let fixture = try await SocketFixture.start()
        defer { Task { await fixture.stop() } }
        let player = try ChildProcess(
            Package.executable("music-player"),
            environment: ["AUDIOSESSION_SOCKET": fixture.socketPath, "AUDIOSESSION_APP_ID": "com.example.music"])
        #expect(player.waitForLine(containing: "playing"), "\(player.output)")
        let impostor = AudioSession(appID: "com.example.music", transport: fixture.transport)
        #expect(throws: SessionError.self) { try impostor.connect() }
        do {
            try impostor.connect()
        } catch {
            #expect(error.code == .badParam)
            #expect(error.message.contains("already connected (pid \(player.pid)"))
        }
        #expect(fixture.arbiter.engine.activeApps == ["com.example.music"])  // the first is untouched
        player.kill9()
    }

    @Test("The daemon killed under its clients: lost, msrv meanwhile, reset when back, configuration re-applied")
    func daemonKilledAndBack() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.path + "/socket"
        var daemon = try ChildProcess(Package.executable("audiosessiond"), ["--socket", socket, "--log-level", "error"])
        try waitUntilListening(socket, daemon)
        let session = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .daemon(socketPath: socket))
        session.reappliesConfigurationAfterReset = true
        let mail = Mailbox(session)
        try session.setCategory(.playback, mode: .spokenAudio)
        try session.setActive(true)

        daemon.kill9()
        #expect(mail.next() == .mediaServicesLost)  // MS1
        #expect(throws: SessionError.self) { try session.setActive(true) }
        do { try session.setMode(.default) } catch { #expect(error.code == .mediaServicesFailed) }

        daemon = try ChildProcess(Package.executable("audiosessiond"), ["--socket", socket, "--log-level", "error"])
        defer { daemon.kill9() }
        // MS2, after reconnecting (route changes of the re-applied category may come first).
        #expect(mail.next(where: { $0 == .mediaServicesReset }) != nil)
        let status = try session.status()
        #expect(status.category == .playback)
        #expect(status.mode == .spokenAudio)
        #expect(status.isActive)
        session.close()
    }

    private func waitUntilListening(_ socket: String, _ daemon: ChildProcess) throws {
        let deadline = Date().addingTimeInterval(20)
        while !SocketPath.isListening(socket) {
            guard Date() < deadline, daemon.process.isRunning else { throw SessionError(.unspecified, daemon.output) }
            usleep(2000)
        }
    }
}
