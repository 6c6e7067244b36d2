import AudioSessionEngine
import AudioSessionModel

/// What a scenario drives: the arbiter and one client per app. In-process today; the same
/// scenario must give the same result against a daemon (SCENARIOS.md `--daemon`).
public protocol ScenarioDriver {
    /// Registers an app with its capabilities and the answer its user gives to the prompt.
    mutating func declare(_ declaration: AppDeclaration) async throws(SessionError)
    /// Performs an app call or a system event; `nil` on success.
    mutating func perform(_ step: Step) async -> SessionError?
    /// The app's session as the app reads it.
    func status(of app: AppID) async throws(SessionError) -> SessionStatus
    /// Lets every event produced so far arrive, then hands them over in delivery order.
    mutating func collectEvents() async -> [(app: AppID, notification: SessionNotification)]
}

/// Drives an `Engine` in this process, answering record-permission prompts as declared.
public struct EmbeddedDriver: ScenarioDriver {
    private(set) var engine: Engine
    private var answers: [AppID: PermissionAnswer] = [:]
    private var delivered: [(app: AppID, notification: SessionNotification)] = []

    public init(device: DeviceProfile, duckLevel: Double) {
        engine = Engine(profile: device, duckLevel: duckLevel)
    }

    public mutating func declare(_ declaration: AppDeclaration) async throws(SessionError) {
        try engine.register(declaration.app, capabilities: declaration.capabilities)
        answers[declaration.app] = declaration.answer
    }

    public mutating func perform(_ step: Step) async -> SessionError? {
        let outcome = engine.apply(step)
        deliver(outcome.effects)
        return outcome.error
    }

    /// Notifications go to their app; a prompt is answered at once by a user who answers (P2).
    private mutating func deliver(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .notify(let app, let notification):
                delivered.append((app, notification))
            case .askRecordPermission(let app):
                guard let answer = answers[app] else { continue }  // never answers: stays undetermined
                deliver(engine.apply(.recordPermissionAnswer(app, granted: answer == .grant)).effects)
            case .outputGain, .stopIO, .otherAudio, .otherAudioStopped:
                continue  // for a backend; the simulated device needs nothing
            }
        }
    }

    public func status(of app: AppID) async throws(SessionError) -> SessionStatus {
        guard let status = engine.status(of: app) else {
            throw SessionError(.badParam, "app \(app) is not registered")
        }
        return status
    }

    public mutating func collectEvents() async -> [(app: AppID, notification: SessionNotification)] {
        defer { delivered.removeAll() }
        return delivered
    }
}
