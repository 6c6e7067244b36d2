import AudioSession
import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

/// P4: with no system controller connected, the daemon asks the user through the desktop's
/// notification server (Allow, Don't Allow); the fallback answers when it cannot ask, when the
/// notification closes unanswered, and after `permission-timeout`.
@Suite("A permission request asked through the desktop's notification (P4)", .serialized)
struct PermissionNotificationTests {
    /// A permission agent answering as told, recording what it was asked and what it took back.
    final class ScriptedAgent: PermissionAgent {
        let answer: PermissionAgentAnswer?
        let asked = Mutex<[String]>([])
        let withdrawn = Mutex<[AppID]>([])
        init(_ answer: PermissionAgentAnswer?) { self.answer = answer }
        func ask(_ app: AppID, named name: String, answered: @escaping @Sendable (PermissionAgentAnswer) -> Void) {
            asked.withLock { $0.append(name) }
            guard let answer else { return }  // nobody there: never answers
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { answered(answer) }
        }
        func withdraw(_ app: AppID) { withdrawn.withLock { $0.append(app) } }
    }

    static func arbiter(_ agent: ScriptedAgent, fallback: Bool = true, timeout: Duration = .seconds(60)) throws -> Arbiter {
        var configuration = Arbiter.Configuration(profile: .desktop, permissionPolicy: .ask)
        configuration.permissionFallback = fallback
        configuration.permissionAgent = agent
        configuration.permissionTimeout = timeout
        return try Arbiter(configuration: configuration, logger: .quiet)
    }

    @Test(
        "P4 in the runtime: the agent's Allow grants and Don't Allow denies, stored (P1); asked once per app; an agent that cannot ask leaves it to the fallback at once",
        arguments: [(PermissionAgentAnswer.granted, true), (.denied, false), (.unanswered("no notification server"), false)])
    func agentAnswers(_ answer: PermissionAgentAnswer, _ expected: Bool) async throws {
        let agent = ScriptedAgent(answer)
        // The fallback is the opposite of Allow's answer where the agent answers, so each is told apart.
        let arbiter = try Self.arbiter(agent, fallback: false)
        let recorder = AudioSession(appID: "messenger", transport: .inProcess(arbiter))
        defer { recorder.close() }
        let started = ContinuousClock.now
        #expect(await recorder.requestRecordPermission() == expected, "\(answer)")
        #expect(ContinuousClock.now - started < .seconds(5), "answered at once, not after the timeout")
        #expect(try recorder.status().recordPermission == (expected ? .granted : .denied), "stored (P1)")
        #expect(agent.asked.withLock { $0 }.count == 1)
        #expect(agent.asked.withLock { $0 }.first?.contains("(messenger)") == true, "\(agent.asked.withLock { $0 })")
        #expect(await recorder.requestRecordPermission() == expected, "decided: the stored answer, not asked again")
        #expect(agent.asked.withLock { $0 }.count == 1)
    }

    @Test("P4 in the runtime: nobody answers — the fallback answers after permission-timeout and the question is taken back")
    func timeout() async throws {
        let agent = ScriptedAgent(nil)
        let arbiter = try Self.arbiter(agent, fallback: true, timeout: .milliseconds(300))
        let recorder = AudioSession(appID: "messenger", transport: .inProcess(arbiter))
        defer { recorder.close() }
        let started = ContinuousClock.now
        #expect(await recorder.requestRecordPermission() == true, "the desktop's fallback: granted")
        #expect(ContinuousClock.now - started >= .milliseconds(300), "not before the timeout")
        // (Taken back just after the answer is delivered: outside the arbiter's lock, as the agent may be slow.)
        #expect(
            eventually { agent.withdrawn.withLock { $0 } == ["messenger"] },
            "the notification taken back: \(agent.withdrawn.withLock { $0 })")
    }

    @Test(
        "P4 in the runtime: a controller that connects and answers while the notification waits wins; the notification is taken back"
    )
    func controllerAnswersMeanwhile() async throws {
        let agent = ScriptedAgent(nil)
        let arbiter = try Self.arbiter(agent, fallback: true)
        let recorder = AudioSession(appID: "messenger", transport: .inProcess(arbiter))
        defer { recorder.close() }
        async let answer = recorder.requestRecordPermission()
        #expect(eventually { agent.asked.withLock { !$0.isEmpty } })
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        #expect(arbiter.handle(.answerPermission("messenger", granted: false), from: controller) == .done)
        #expect(await answer == false, "the controller's answer")
        #expect(eventually { agent.withdrawn.withLock { $0 } == ["messenger"] })
        arbiter.disconnect(controller)
    }

    // MARK: - Through a daemon, a private session bus and a notification server

    /// A private session bus with the test notification server (Tests/C/notification_server.c)
    /// answering each notification as `behaviours` say, in order.
    struct Desktop {
        let directory = TemporaryDirectory()
        var address: String { "unix:path=\(directory.path)/bus" }
        let bus: ChildProcess
        let server: ChildProcess

        init(_ behaviours: [String]) throws {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("C/notification_server.c").path
            let binary = directory.path + "/notification_server"
            let flags = try ChildProcess("/usr/bin/pkg-config", ["--cflags", "--libs", "libsystemd"])
            flags.waitUntilExit()
            let compiler = try ChildProcess(
                "/usr/bin/cc",
                ["-Wall", "-Wextra", "-Werror", "-o", binary, source] + flags.output.split(separator: " ").map(String.init))
            compiler.waitUntilExit()
            guard access(binary, X_OK) == 0 else { throw Failure("the notification server did not build: \(compiler.output)") }
            bus = try ChildProcess(
                "/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=unix:path=\(directory.path)/bus"])
            let socket = directory.path + "/bus"
            guard eventually({ access(socket, F_OK) == 0 }) else { throw Failure("the session bus did not start: \(bus.output)") }
            server = try ChildProcess(binary, behaviours, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"])
            guard server.waitForLine(containing: "ready") else { throw Failure("the notification server: \(server.output)") }
        }

        func stop() {
            server.kill9()
            bus.kill9()
            directory.remove()
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
            init(_ description: String) { self.description = description }
        }
    }

    @Test(
        "P4 through a daemon on a desktop with no controller: Allow grants, Don't Allow denies, a notification closed unanswered leaves it to the fallback at once, and one nobody answers to the fallback after permission-timeout (then closed)"
    )
    func daemonAsksTheDesktop() async throws {
        let desktop = try Desktop(["allow", "deny", "close", "none"])
        defer { desktop.stop() }
        let daemon = try ChildDaemon.start(
            ["--log-level", "error", "--device", "desktop", "--permission-timeout", "2"],
            shell: "DBUS_SESSION_BUS_ADDRESS='\(desktop.address)' exec \"$0\" \"$@\"")
        defer { daemon.stop() }
        let expected: [(app: AppID, answer: Bool)] = [("messenger", true), ("dictation", false), ("notes", true)]
        for (app, answer) in expected {
            let recorder = AudioSession(appID: app, transport: daemon.transport)
            defer { recorder.close() }
            let started = ContinuousClock.now
            #expect(await recorder.requestRecordPermission() == answer, "\(app): \(desktop.server.output)")
            let took = ContinuousClock.now - started
            #expect(took < .milliseconds(1800), "\(app) answered at once, not after the timeout: \(took)")
            #expect(try recorder.status().recordPermission == (answer ? .granted : .denied), "\(app): stored (P1)")
        }
        // Nobody answers this one: `audiosession status` shows it asked meanwhile; the fallback after 2 s.
        let memo = AudioSession(appID: "voice-memo", transport: daemon.transport)
        defer { memo.close() }
        let started = ContinuousClock.now
        async let memoAnswer = memo.requestRecordPermission()
        #expect(desktop.server.waitForLine(containing: "(voice-memo) wants"), "\(desktop.server.output)")
        let status = try ChildProcess(Package.executable("audiosession"), ["status", "--socket", daemon.socket])
        status.waitUntilExit()
        #expect(
            status.output.contains(
                "record permission without a controller: desktop notification, then the fallback after 2.0 s; permission-fallback granted  asking now: voice-memo"
            ), "\(status.output)")
        #expect(await memoAnswer == true, "the desktop's fallback")
        #expect(ContinuousClock.now - started >= .seconds(2), "not before permission-timeout")
        let calls = desktop.server.output.split(separator: "\n").filter { $0.hasPrefix("Notify") }
        #expect(calls.count == 4, "\(desktop.server.output)")
        #expect(
            calls.first?.contains("app=audiosessiond summary=") == true
                && calls.first?.contains("(messenger) wants to use the microphone") == true
                && calls.first?.contains("actions=allow,Allow,deny,Don't Allow timeout=0") == true,
            "\(calls.first ?? "none")")
        #expect(
            desktop.server.waitForLine(containing: "CloseNotification id=10"),
            "the unanswered one taken back: \(desktop.server.output)")
    }
}

/// Waits (bounded) until the condition holds.
private func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
