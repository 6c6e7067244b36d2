import AudioSession
import AudioSessionModel
import AudioSessionWire
import Foundation
import Testing

/// §19 SO1 on real servers: an app that plays through a Linux library (libpulse-simple, as OpenAL,
/// SDL or GStreamer would) in its own process is governed as itself, never as other audio.
@Suite("An app's streams are its own, whatever plays them (SO1)", .serialized)
struct ProcessStreamTests {
    /// Tests/C/so1-app.c, compiled with cc against this package's C library and libpulse-simple.
    static func so1App() throws -> String {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let flags = try PulseFixture.run(
            "/usr/bin/pkg-config", ["--cflags", "--libs", "AudioSessionServices", "libpulse-simple"],
            environment: ["PKG_CONFIG_PATH": package + "/pkgconfig"])
        return try PulseFixture.compile("so1-app", flags: flags.split(separator: " ").map(String.init) + ["-lm"])
    }

    /// The app as status lists it.
    static func app(_ id: String, _ desktop: PlayersBridgeTests.Desktop) -> AppSnapshot? {
        (try? desktop.snapshot().apps)?.first { $0.app.rawValue == id }
    }

    @Test(
        "SO1: a C app's libpulse stream is its own — its start activates the session (IO1), another app's interruption mutes it under other-audio: mix, a call refuses a new one (muted until the call ends)",
        arguments: ServerKind.allCases)
    func libraryStreamIsTheApps(_ kind: ServerKind) throws {
        // A desktop's policy: other audio mixes with everything (OA5), so only SO1 can silence it.
        let desktop = try PlayersBridgeTests.Desktop(kind, config: "policy:\n  other-audio: mix\n")
        defer { desktop.stop() }
        let executable = try Self.so1App()
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "game"]
        let game = try desktop.start([executable, "20"], log: "game.log")
        // IO1: its stream started, its session active with output running, without a setActive of its own.
        #expect(
            eventually { Self.app("game", desktop).map { $0.isActive && $0.isOutputRunning } == true },
            "IO1: \(String(describing: Self.app("game", desktop))) \(desktop.log("game.log")) \(desktop.daemonLog)")
        let listed = Self.app("game", desktop)
        #expect(
            listed?.streams.contains { $0.hasPrefix("playback") } == true,
            "status lists its stream: \(String(describing: listed))")
        #expect(
            (try? desktop.snapshot().device.otherAudio.contains { $0.audio.name == "SO1 App" }) == false,
            "never other audio: \(String(describing: try? desktop.snapshot().device.otherAudio))")
        #expect(desktop.streamMuted(of: game) == false)

        // I1: another app's non-mixable session interrupts it: silenced though other audio would mix.
        let radio = AudioSession(appID: "radio", capabilities: .backgroundAudio, transport: desktop.transport)
        defer { radio.close() }
        try radio.setCategory(.playback)
        try radio.setActive(true)
        #expect(eventually { desktop.log("game.log").contains("interruption begin") }, "\(desktop.log("game.log"))")
        #expect(eventually { desktop.streamMuted(of: game) == true }, "I1: muted on the server. \(desktop.daemonLog)")
        // I3: the interrupter lets go; its stream still plays, so its session is active again, heard.
        try radio.setActive(false, options: .notifyOthersOnDeactivation)
        #expect(eventually { desktop.log("game.log").contains("interruption end") }, "\(desktop.log("game.log"))")
        #expect(eventually { desktop.streamMuted(of: game) == false }, "plays again. \(desktop.daemonLog)")

        // A3, I4: during a call its stream is silenced; a second app starting then is refused and muted
        // from its start until the call ends, then heard.
        try desktop.system(.systemSession(.call, begin: true))
        #expect(eventually { desktop.streamMuted(of: game) == true }, "I4: silenced by the call")
        desktop.extraEnvironment["AUDIOSESSION_APP_ID"] = "late"
        let late = try desktop.start([executable, "20"], log: "late.log")
        #expect(eventually { desktop.log("late.log").contains("playing") && desktop.streamMuted(of: late) != nil })
        var heard = false
        for _ in 0..<10 {
            if desktop.streamMuted(of: late) == false { heard = true }
            usleep(50_000)
        }
        #expect(!heard, "A3: refused during the call, it is never heard")
        #expect(Self.app("late", desktop).map { !$0.isActive } == true, "\(String(describing: Self.app("late", desktop)))")
        // The first app quits during the call (two non-mixable apps after it would take turns, A4).
        PulseFixture.end(game)
        #expect(eventually { Self.app("game", desktop) == nil }, "its session departed with its process")
        try desktop.system(.systemSession(.call, begin: false))
        #expect(
            eventually { desktop.streamMuted(of: late) == false && Self.app("late", desktop)?.isActive == true },
            "heard after the call: \(String(describing: Self.app("late", desktop))). \(desktop.daemonLog)")
        PulseFixture.end(late)
        #expect(eventually { Self.app("late", desktop) == nil })
        #expect((try? desktop.snapshot().violations.isEmpty) == true)
    }
}
