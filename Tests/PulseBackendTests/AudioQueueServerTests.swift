import AudioSession
import AudioSessionMedia
import AudioSessionModel
import Foundation
import Testing

/// §19 SO4, SO7 on real servers: a C app's Audio Queues (Tests/C/queue-app.c, built with cc against
/// the C library) through a daemon — heard on the speaker's monitor at the level of its samples,
/// its stream the app's own, stopped by a call and started again by the app after it, nothing left
/// after Dispose; an input queue records the microphone's tone.
@Suite("Audio Queues on a real server (SO4, SO7)", .serialized)
struct AudioQueueServerTests {
    static func queueApp() throws -> String { try cProgram("queue-app") }

    /// A program of Tests/C, compiled with cc against this package's C library.
    static func cProgram(_ name: String) throws -> String {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let flags = try PulseFixture.run(
            "/usr/bin/pkg-config", ["--cflags", "--libs", "AudioSessionServices"],
            environment: ["PKG_CONFIG_PATH": package + "/pkgconfig"])
        return try PulseFixture.compile(name, flags: flags.split(separator: " ").map(String.init) + ["-lm"])
    }

    @Test(
        "SO4: a queue's tone is heard at its level, its stream the app's own; a call stops the queue (IsRunning 0) and silences it; after the end the app's AudioQueueStart succeeds, IsRunning is 1, heard again; Dispose leaves no stream",
        arguments: ServerKind.allCases)
    func output(_ kind: ServerKind) throws {
        try Self.heardAsItsApp(kind, program: "queue-app", ["play", "15"], app: "camera")
    }

    /// SO4, SO5, SO7: a C app of Tests/C playing a −6 dBFS tone through a daemon — heard at its level
    /// on the speaker's monitor (recorded in stereo: a mono downmix differs between the servers),
    /// its stream the app's own, its output running (IO1), never other audio; a call stops its
    /// object ("running 0") and silences it; after the end the app starts it again ("restart 0",
    /// "running 1"), heard again; at SIGUSR1 it disposes of the object, which leaves no stream.
    static func heardAsItsApp(_ kind: ServerKind, program: String, _ arguments: [String], app id: String) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let monitor = try desktop.server.recordMonitor(of: "speaker", channels: 2)
        defer { monitor.stop() }
        let executable = try cProgram(program)
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": id]
        let app = try desktop.start([executable] + arguments, log: "\(program).log")
        let log = { desktop.log("\(program).log") }
        #expect(eventually { log().contains("running 1") }, "\(kind): \(log()) \(desktop.daemonLog)")
        let full = monitor.settle { abs($0 - 20 * log10(0.5)) < 1 }
        #expect(abs(full - 20 * log10(0.5)) < 1, "\(kind): heard at \(full) dBFS, its samples' −6.02 ± 1 dB")
        let snapshot = { (try? desktop.snapshot().apps)?.first { $0.app.rawValue == id } }
        #expect(eventually { (try? desktop.server.ownStream(of: id)) != nil }, "\(kind): its stream carries the app")
        #expect(snapshot()?.isOutputRunning == true, "\(kind): its output running (IO1): \(String(describing: snapshot()))")
        #expect((try? desktop.snapshot().device.otherAudio.isEmpty) == true, "\(kind): never other audio")

        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { log().contains("running 0") }, "\(kind): the call stops it: \(log())")
        let during = monitor.settleToSilence()
        #expect(during < -60, "\(kind): silent during the call: \(during) dBFS")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { log().contains("interruption end: restart 0") && log().components(separatedBy: "running 1").count == 3 },
            "\(kind): after the end the app starts it again: \(log())")
        let again = monitor.settle { abs($0 - 20 * log10(0.5)) < 1 }
        #expect(abs(again - 20 * log10(0.5)) < 1, "\(kind): heard again at \(again) dBFS")

        kill(app, SIGUSR1)  // enough heard: the app disposes of it now
        #expect(eventually(within: 20) { log().contains("dispose 0") }, "\(kind): \(log())")
        #expect(eventually { desktop.streamMuted(of: app) == nil }, "\(kind): Dispose leaves no stream (the app lives on)")
        let after = monitor.settleToSilence()
        #expect(after < -60, "\(kind): nothing heard after Dispose: \(after) dBFS")
    }

    @Test(
        "SO4, SO5 on a real server through a daemon: the queue's and the units' checks (bad input, Stop(false) plays what is queued and Stop(true) does not, a blocking callback, the render callback's size, VoiceProcessingIO stopped by a call) pass as on the simulated device",
        arguments: ServerKind.allCases)
    func checksOnAServer(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "checks"]
        for (program, arguments) in [("queue-app", ["checks"]), ("unit-app", ["checks"])] {
            let executable = try Self.cProgram(program)
            let pid = try desktop.start([executable] + arguments, log: "\(program).log")
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(30)
            while waitpid(pid, &status, WNOHANG) == 0, Date() < deadline { usleep(20_000) }
            let log = desktop.log("\(program).log")
            #expect(log.contains("checks passed"), "\(kind): \(program): \(log)")
        }
    }

    @Test(
        "SO4: an input queue records the microphone's tone — 440 Hz, at its level", arguments: ServerKind.allCases)
    func input(_ kind: ServerKind) throws {
        try Self.recordsTheTone(kind, program: "queue-app", ["record"], app: "recorder")
    }

    /// SO4, SO5: a C app of Tests/C recording through a daemon, with permission (P2), while another
    /// app plays the desktop's 440 Hz tone at −14 dBFS, mixable (the microphone hears the speaker,
    /// PulseFixture); the app prints "recorded L dBFS; 440 Hz A, 330 Hz B, 550 Hz C" of its last
    /// second: the tone's level (± 3.5 dB) and its frequency (30× its neighbours a third away).
    static func recordsTheTone(_ kind: ServerKind, program: String, _ arguments: [String], app id: String) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind, config: "permission-prompt: grant\n")
        defer { desktop.stop() }
        let toneApp = AudioSession(appID: "tone", capabilities: .backgroundAudio, transport: desktop.transport)
        defer { toneApp.close() }
        try toneApp.setCategory(.playback, options: [.mixWithOthers])
        let tone = try AudioPlayer(contentsOf: desktop.tone, session: toneApp, endpoint: .soundServer(desktop.server.server))
        try tone.play()
        defer { tone.stop() }
        let executable = try cProgram(program)
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": id]
        _ = try desktop.start([executable] + arguments, log: "\(program).log")
        let log = { desktop.log("\(program).log") }
        #expect(eventually(within: 20) { log().contains("recorded ") }, "\(kind): \(log()) \(desktop.daemonLog)")
        let line = log().split(separator: "\n").first { $0.hasPrefix("recorded ") }.map(String.init) ?? ""
        let numbers = line.split(whereSeparator: { " ;,".contains($0) }).compactMap { Double($0) }
        try #require(numbers.count == 7, "\(kind): \(line)")
        let (level, at440, at330, at550) = (numbers[0], numbers[2], numbers[4], numbers[6])
        #expect(abs(level - 20 * log10(0.2)) < 3.5, "\(kind): recorded at \(level) dBFS, the tone's −14 dBFS: \(line)")
        #expect(at440 > 30 * max(at330, at550), "\(kind): its frequency is the tone's: \(line)")
    }
}
