import AudioSessionModel

/// A parsed scenario file (SCENARIOS.md): its header and its items in file order.
public struct Scenario: Hashable, Sendable {
    /// The file name used in messages.
    public var file: String
    public var device: DeviceProfile = .iphone
    /// D1: `duck-level`, default 0.2.
    public var duckLevel: Double = 0.2
    public var items: [Item] = []

    public init(file: String) { self.file = file }

    /// An app declaration (not a step) or a step.
    public enum Item: Hashable, Sendable {
        case declare(AppDeclaration)
        case step(ScenarioStep)
    }

    /// The steps only, in order.
    public var steps: [ScenarioStep] {
        items.compactMap { if case .step(let step) = $0 { step } else { nil } }
    }
}

/// What the user answers to the record-permission prompt (`answers=`).
public enum PermissionAnswer: Hashable, Sendable {
    case grant, deny
}

/// `app NAME [background-audio] [now-playing] [answers=grant|deny]`.
public struct AppDeclaration: Hashable, Sendable {
    public var name: String
    public var capabilities: AppCapabilities
    /// `nil`: the user never answers, so the permission stays undetermined.
    public var answer: PermissionAnswer?

    public init(name: String, capabilities: AppCapabilities = [], answer: PermissionAnswer? = nil) {
        self.name = name
        self.capabilities = capabilities
        self.answer = answer
    }

    public var app: AppID { AppID(name) }
}

/// One step of a scenario: its line, its text and what it does or checks.
public struct ScenarioStep: Hashable, Sendable {
    public var line: Int
    /// The line without its comment, trimmed.
    public var text: String
    public var action: Action

    public enum Action: Hashable, Sendable {
        /// An app call or system event, and whether it must succeed or fail.
        case perform(Step, Outcome)
        /// `expect NAME event EVENT [FIELD=VALUE...]`
        case expectEvent(AppID, EventPattern)
        /// `expect NAME no-events`
        case expectNoEvents(AppID)
        /// `expect NAME PROPERTY=VALUE...`
        case expectProperties(AppID, [PropertyExpectation])
    }

    /// What a performed step must do.
    public enum Outcome: Hashable, Sendable {
        case succeed
        /// `! …` without a code.
        case fail
        /// `! … CODE`.
        case failWith(SessionError.Code)
    }
}

/// A scenario file that does not parse: `file:line:column` and what was expected there.
public typealias ScenarioParseError = TextSyntaxError
