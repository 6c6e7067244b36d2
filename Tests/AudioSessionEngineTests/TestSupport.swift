@testable import AudioSessionEngine
@testable import AudioSessionModel

/// Builds an engine with registered apps; every app call must succeed unless said otherwise.
struct Harness {
    var engine: Engine

    init(profile: DeviceProfile = .iphone, apps: [(AppID, AppCapabilities)] = []) throws {
        engine = Engine(profile: profile)
        for (app, capabilities) in apps { try engine.register(app, capabilities: capabilities) }
    }

    @discardableResult
    mutating func call(_ app: AppID, _ call: AppCall) -> StepOutcome { engine.apply(.app(app, call)) }

    @discardableResult
    mutating func system(_ event: SystemEvent) -> StepOutcome { engine.apply(.system(event)) }

    @discardableResult
    mutating func step(_ step: Step) -> StepOutcome { engine.apply(step) }

    func status(_ app: AppID) -> SessionStatus { engine.status(of: app)! }
}

extension StepOutcome {
    /// The notifications of one app, in order.
    func notifications(of app: AppID) -> [SessionNotification] {
        notifications.filter { $0.app == app }.map(\.notification)
    }

    /// The apps told `interruption began`, in delivery order.
    var interruptedApps: [AppID] {
        notifications.filter {
            if case .interruptionBegan = $0.notification { true } else { false }
        }.map(\.app)
    }
}
