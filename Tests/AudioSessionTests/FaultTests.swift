import AudioSession
import AudioSessionDaemon
import AudioSessionEngine
import AudioSessionRuntime
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
            Package.executable("phone-call"), ["--duck", "600"],
            environment: environment.merging(["AUDIOSESSION_APP_ID": "nav"]) { $1 })
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
        let log = LogCapture()
        let fixture = try await SocketFixture.start(logger: log.logger)
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
        #expect(log.warned("refused a second connection for app com.example.music", "connected=pid \(player.pid)"))
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

    @Test("MS1, MS2: connectOrWaitForDaemon before any daemon: msrv meanwhile, reset once one listens; a refusal still throws")
    func waitsForADaemon() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.path + "/socket"
        let session = AudioSession(appID: "bridge.player", transport: .daemon(socketPath: socket))
        let mail = Mailbox(session)
        #expect(try session.connectOrWaitForDaemon() == false)
        do { try session.setCategory(.playback) } catch { #expect(error.code == .mediaServicesFailed) }
        let daemon = try ChildProcess(Package.executable("audiosessiond"), ["--socket", socket, "--log-level", "error"])
        defer { daemon.kill9() }
        #expect(mail.next(where: { $0 == .mediaServicesReset }) != nil)
        try session.setCategory(.playback)
        #expect(try session.status().category == .playback)
        // The same app id a second time: the daemon refuses it, and that is not waited out.
        let twin = AudioSession(appID: "bridge.player", transport: .daemon(socketPath: socket))
        #expect(throws: SessionError.self) { _ = try twin.connectOrWaitForDaemon() }
        session.close()
    }

    @Test("kill -9 of the daemon during a permission write, 200 times: the store is whole and holds the old or the new answer")
    func killedDuringPermissionWrites() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.path + "/socket"
        let state = directory.path + "/state"
        var previous: [AppID: RecordPermission] = [:]
        var sawOld = 0
        var sawNew = 0
        for round in 0..<200 {
            let daemon = try ChildProcess(
                Package.executable("audiosessiond"), ["--socket", socket, "--state-dir", state, "--log-level", "error"])
            try waitUntilListening(socket, daemon)
            let controller = try SystemController(transport: .daemon(socketPath: socket))
            // A new app each round, so each round has a prompt to answer and a write to make.
            let app = AppID("memo-\(round)")
            let memo = AudioSession(appID: app, transport: .daemon(socketPath: socket))
            try memo.perform(.requestRecordPermission)
            try controller.waitForPendingEvents()
            let answer: RecordPermission = round % 2 == 0 ? .granted : .denied
            let answered = DispatchSemaphore(value: 0)
            Thread {
                try? controller.answerRecordPermission(for: app, granted: answer == .granted)
                answered.signal()
            }.start()
            // Kill at a different moment each round, from at once to well after the write (a
            // loaded machine delays the daemon, so the spread reaches 30 ms).
            let delays: [useconds_t] = [0, 50, 150, 400, 1_000, 3_000, 10_000, 30_000]
            usleep(delays[round % delays.count])
            daemon.kill9()
            _ = answered.wait(timeout: .now() + 10)
            memo.close()
            controller.close()
            let saved = try SettingsStore(directory: state).load().recordPermissions
            var updated = previous
            updated[app] = answer
            #expect(saved == previous || saved == updated, "round \(round): \(saved.count) permissions saved")
            if saved == updated { sawNew += 1 } else { sawOld += 1 }
            previous = saved
        }
        // Both outcomes happened: the kill did land before and after the write.
        #expect(sawNew > 0)
        #expect(sawOld > 0)
    }

    @Test("kill -9 of churning clients mid-request, mid-activation and while ducking, 30 rounds: nothing is left behind")
    func killedWhileChurning() async throws {
        let fixture = try await SocketFixture.start()
        defer { Task { await fixture.stop() } }
        // Bystanders: radio mixes (others duck it), music does not (others interrupt it).
        let radio = AudioSession(appID: "radio", capabilities: .backgroundAudio, transport: fixture.transport)
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: fixture.transport)
        try radio.setCategory(.playback, options: .mixWithOthers)
        try radio.setActive(true)
        try music.setCategory(.playback)
        var killedWhileActive = 0
        var killedWhileDucking = 0
        for round in 0..<30 {
            if try !music.status().isActive { try music.setActive(true) }
            let churner = try ChildProcess(
                Package.executable("audiosession"),
                [
                    "soak", "--clients", "8", "--seconds", "600", "--system-interval", "0", "--seed", "\(round)",
                    "--socket", fixture.socketPath,
                ])
            defer { churner.kill9() }
            let soakApps = { (engine: Engine) in engine.apps.filter { $0.rawValue.hasPrefix("soak-") && engine.isPresent($0) } }
            let deadline = Date().addingTimeInterval(20)
            while soakApps(fixture.arbiter.engine).count < 4, Date() < deadline { usleep(1000) }
            usleep(useconds_t(round * 397 % 20_000))  // a different moment of the churn each round
            let atKill = fixture.arbiter.engine
            churner.kill9()
            if atKill.activeApps.contains(where: { $0.rawValue.hasPrefix("soak-") }) { killedWhileActive += 1 }
            if atKill.status(of: "radio")?.outputGain == atKill.duckLevel { killedWhileDucking += 1 }

            // Every connection of the dead process departs; nothing it caused outlives it. (One the
            // daemon accepted just before the kill may say its hello after the others have gone:
            // it registers, then departs at its end of file. Waited for again after settling.)
            let departure = Date().addingTimeInterval(10)
            for _ in 0..<2 {
                while !soakApps(fixture.arbiter.engine).isEmpty, Date() < departure { usleep(1000) }
                try radio.waitForPendingNotifications()
                try music.waitForPendingNotifications()
            }
            let engine = fixture.arbiter.engine
            #expect(soakApps(engine).isEmpty, "round \(round)")
            #expect(engine.invariantViolations.isEmpty, "round \(round): \(engine.invariantViolations)")
            #expect(!engine.activeApps.contains { $0.rawValue.hasPrefix("soak-") })
            #expect(try radio.status().outputGain == 1, "round \(round): radio still ducked")
            #expect(try !music.status().isInterrupted, "round \(round): music still interrupted")
        }
        // The kills landed in the moments the matrix names (the churn always has a request in flight).
        #expect(killedWhileActive > 0)
        #expect(killedWhileDucking > 0)
        radio.close()
        music.close()
    }

}
