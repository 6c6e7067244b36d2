import AudioSessionModel

/// The outcome of one step of a scenario.
public struct StepResult: Sendable {
    public var line: Int
    public var text: String
    /// `nil` when the step passed; else "expected …, got …".
    public var failure: String?
    /// The events that reached each app during this step, in delivery order.
    public var events: [(app: AppID, notification: SessionNotification)]
    /// Every declared app's session after the step, in declaration order (when the runner
    /// records states, for timeline pictures); an app whose status could not be read is left out.
    public var states: [(app: AppID, status: SessionStatus)] = []

    public var passed: Bool { failure == nil }

    /// `ok LINE: TEXT` or `not ok LINE: TEXT — expected …, got …` (SCENARIOS.md "Output").
    public var outputLine: String {
        guard let failure else { return "ok \(line): \(text)" }
        return "not ok \(line): \(text) — \(failure)"
    }
}

/// The outcome of a whole scenario file.
public struct ScenarioReport: Sendable {
    public var file: String
    public var results: [StepResult] = []
    /// The apps the file declares, in order.
    public var apps: [AppID] = []

    public var passed: Int { results.count { $0.passed } }
    public var failed: Int { results.count - passed }

    /// `N passed, N failed`
    public var summaryLine: String { "\(passed) passed, \(failed) failed" }
}

/// Runs a parsed scenario against a driver, step by step. A step after a failed step still runs.
public struct ScenarioRunner<Driver: ScenarioDriver> {
    /// The driver, as the run left it.
    public private(set) var driver: Driver
    /// Events delivered to each app and not yet consumed by an expectation.
    private var queues: [AppID: [SessionNotification]] = [:]
    /// Whether each step's result carries every app's session after it (`StepResult.states`).
    public var recordsStates = false
    /// The apps in the order the file declares them.
    public private(set) var declaredApps: [AppID] = []

    public init(driver: Driver, recordsStates: Bool = false) {
        self.driver = driver
        self.recordsStates = recordsStates
    }

    /// Runs every item of the scenario and reports each step.
    public mutating func run(_ scenario: Scenario) async -> ScenarioReport {
        var report = ScenarioReport(file: scenario.file)
        for item in scenario.items {
            switch item {
            case .declare(let declaration):
                // The parser refuses duplicates, so registration cannot fail here.
                try? await driver.declare(declaration)
                queues[declaration.app] = []
                declaredApps.append(declaration.app)
            case .step(let step):
                let failure = await execute(step.action)
                let events = await driver.collectEvents()
                for (app, notification) in events { queues[app, default: []].append(notification) }
                var result = StepResult(line: step.line, text: step.text, failure: failure, events: events)
                if recordsStates {
                    for app in declaredApps {
                        if let status = try? await driver.status(of: app) { result.states.append((app, status)) }
                    }
                }
                report.results.append(result)
            }
        }
        report.apps = declaredApps
        return report
    }

    /// Runs one step; returns "expected …, got …" when it does not do what the file says.
    private mutating func execute(_ action: ScenarioStep.Action) async -> String? {
        switch action {
        case .perform(let step, let outcome):
            let error = await driver.perform(step)
            return Self.check(error, against: outcome)
        case .expectEvent(let app, let pattern):
            await receiveEvents()
            guard var queue = queues[app], !queue.isEmpty else { return "expected \(pattern), got no event" }
            let next = queue.removeFirst()
            queues[app] = queue
            return pattern.matches(next) ? nil : "expected \(pattern), got \(next.scenarioText)"
        case .expectNoEvents(let app):
            await receiveEvents()
            guard let next = queues[app]?.first else { return nil }
            return "expected no events, got \(next.scenarioText)"
        case .expectProperties(let app, let expectations):
            let status: SessionStatus
            do { status = try await driver.status(of: app) } catch { return "expected \(app) to be readable, got \(error)" }
            let wrong = expectations.filter { !$0.expected.matches($0.property.value(in: status)) }
            guard !wrong.isEmpty else { return nil }
            let expected = wrong.map { "\($0.property.rawValue)=\($0.expected)" }.joined(separator: " ")
            let actual = wrong.map { "\($0.property.rawValue)=\($0.property.value(in: status))" }.joined(separator: " ")
            return "expected \(expected), got \(actual)"
        }
    }

    /// Before each `expect … event`, every event produced so far arrives.
    private mutating func receiveEvents() async {
        for (app, notification) in await driver.collectEvents() { queues[app, default: []].append(notification) }
    }

    private static func check(_ error: SessionError?, against outcome: ScenarioStep.Outcome) -> String? {
        switch (outcome, error) {
        case (.succeed, nil), (.fail, .some): return nil
        case (.succeed, .some(let error)): return "expected success, got \(error.code) (\(error.message))"
        case (.fail, nil): return "expected failure, got success"
        case (.failWith(let code), nil): return "expected \(code), got success"
        case (.failWith(let code), .some(let error)):
            return code == error.code ? nil : "expected \(code), got \(error.code) (\(error.message))"
        }
    }
}
