import AudioSessionClient
import AudioSessionWire
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Drives an arbiter through real client connections: one `AudioSession` per scenario app
/// and one system controller for system steps and permission answers (SCENARIOS.md
/// `--daemon`). Over the daemon's socket or in-process, the same file gives the same result.
public struct ConnectedDriver: ScenarioDriver {
    private let transport: AudioSessionTransport
    private let controller: SystemController
    private let inbox: Inbox
    private var sessions: [AppID: AudioSession] = [:]
    private var answers: [AppID: PermissionAnswer] = [:]

    /// What arrives on the connections, gathered until `collectEvents`.
    private final class Inbox: Sendable {
        struct Contents {
            /// Every notification in daemon order (the controller's subscription).
            var observed: [(sequence: UInt64, app: AppID, notification: SessionNotification)] = []
            /// What each app's own session received, in order.
            var received: [AppID: [SessionNotification]] = [:]
            var prompts: [AppID] = []
        }
        let contents = Mutex(Contents())
    }

    /// Connects the controller and gives the scenario a fresh device.
    /// - Throws: `msrv` without a daemon; -50 when apps are connected to it already.
    public init(transport: AudioSessionTransport, device: DeviceProfile, duckLevel: Double) throws(SessionError) {
        let inbox = Inbox()
        self.inbox = inbox
        self.transport = transport
        controller = try SystemController(transport: transport, role: .controller) { event in
            switch event {
            case .observed(let sequence, _, let app, let notification):
                inbox.contents.withLock { $0.observed.append((sequence, app, notification)) }
            case .permissionPrompt(let app):
                inbox.contents.withLock { $0.prompts.append(app) }
            default: break
            }
        }
        try controller.reset(profile: device, duckLevel: duckLevel)
        try controller.subscribe()
    }

    public mutating func declare(_ declaration: AppDeclaration) async throws(SessionError) {
        let session = AudioSession(
            appID: declaration.app, capabilities: declaration.capabilities, transport: transport, poster: nil)
        let inbox = inbox
        let app = declaration.app
        session.addNotificationHandler { notification in
            inbox.contents.withLock { $0.received[app, default: []].append(notification) }
        }
        try session.connect()
        sessions[app] = session
        answers[app] = declaration.answer
    }

    public mutating func perform(_ step: Step) async -> SessionError? {
        do throws(SessionError) {
            switch step {
            case .app(let app, let call):
                guard let session = sessions[app] else { throw SessionError(.badParam, "app \(app) is not registered") }
                try session.perform(call)
            case .system(let event):
                try controller.perform(event)
            case .recordPermissionAnswer(let app, let granted):
                try controller.answerRecordPermission(for: app, granted: granted)
            case .departure(let app):
                throw SessionError(.badParam, "a scenario cannot end the process of \(app)")
            }
        } catch {
            answerPrompts()
            return error
        }
        answerPrompts()
        return nil
    }

    /// P2: the prompts the step raised are answered as each app's user would (`answers=`).
    private func answerPrompts() {
        try? controller.waitForPendingEvents()
        let prompts = inbox.contents.withLock { contents in
            defer { contents.prompts.removeAll() }
            return contents.prompts
        }
        for app in prompts {
            guard let answer = answers[app] else { continue }  // never answers: stays undetermined
            try? controller.answerRecordPermission(for: app, granted: answer == .grant)
        }
    }

    public func status(of app: AppID) async throws(SessionError) -> SessionStatus {
        guard let session = sessions[app] else { throw SessionError(.badParam, "app \(app) is not registered") }
        return try session.status()
    }

    /// Waits until every connection has handed over what was sent to it, then gives the
    /// notifications in daemon order, each as its app received it. One the daemon sent but
    /// the app never received is left out, so the scenario's expectation fails.
    public mutating func collectEvents() async -> [(app: AppID, notification: SessionNotification)] {
        for session in sessions.values { try? session.waitForPendingNotifications() }
        try? controller.waitForPendingEvents()
        return inbox.contents.withLock { contents in
            defer {
                contents.observed.removeAll()
                contents.received.removeAll()
            }
            var events: [(app: AppID, notification: SessionNotification)] = []
            for (_, app, notification) in contents.observed.sorted(by: { $0.sequence < $1.sequence }) {
                guard var queue = contents.received[app], let first = queue.first, first == notification else { continue }
                queue.removeFirst()
                contents.received[app] = queue
                events.append((app, notification))
            }
            return events
        }
    }

    /// Closes every connection and waits (bounded, 5 s) until the daemon has seen the apps
    /// go, so the next scenario can reset the device.
    public func close() {
        for session in sessions.values { session.close() }
        for _ in 0..<5000 {
            guard let snapshot = try? controller.snapshot(), !snapshot.apps.isEmpty else { break }
            usleep(1000)
        }
        controller.close()
    }
}
