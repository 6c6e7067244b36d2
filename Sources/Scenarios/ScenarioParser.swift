import AudioSessionModel

/// Parses scenario files (SCENARIOS.md). Total: any text gives a scenario or an error that
/// names the file, line and column and what was expected there.
public struct ScenarioParser {
    private var scenario: Scenario
    private var declared: Set<String> = []
    /// `device` must come before any other line.
    private var sawLine = false
    /// `duck-level` must come before the first app or system step.
    private var sawAppOrSystemStep = false

    /// Parses a whole file.
    public static func parse(_ text: String, file: String) throws(ScenarioParseError) -> Scenario {
        var parser = ScenarioParser(scenario: Scenario(file: file))
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var cursor = LineCursor(file: file, line: offset + 1, text: line)
            guard !cursor.isAtEnd else { continue }
            let text = line.prefix { $0 != "#" }
            try parser.parseLine(&cursor, text: trimmed(text))
        }
        return parser.scenario
    }

    /// A system event written as a scenario's `system` step without the word, e.g.
    /// `call begin` or `unplug headset-1` (`SystemEvent(parsing:)`).
    public static func systemEvent(_ words: String) throws(ScenarioParseError) -> SystemEvent {
        try SystemEvent(parsing: trimmed(Substring(words)))
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }

    private mutating func parseLine(_ cursor: inout LineCursor, text: String) throws(ScenarioParseError) {
        let first = try cursor.next("a step")
        defer { sawLine = true }
        switch first.text {
        case "device":
            guard !sawLine else { throw cursor.error("`device` must come before any other line", at: first) }
            let name = try cursor.next(oneOf: DeviceProfile.allCases.map(\.name), "a device profile")
            scenario.device = DeviceProfile(name: name.text)!
            try cursor.expectEnd()
        case "duck-level":
            guard !sawAppOrSystemStep else {
                throw cursor.error("`duck-level` must come before the first app or system step", at: first)
            }
            let token = try cursor.next("a duck level between 0 and 1")
            guard let level = ScenarioValue.number(token.text), (0...1).contains(level) else {
                throw cursor.error(expected: "a duck level between 0 and 1", found: token)
            }
            scenario.duckLevel = level
            try cursor.expectEnd()
        case "app":
            scenario.items.append(.declare(try parseDeclaration(&cursor)))
        case "expect":
            let action = try parseExpectation(&cursor)
            scenario.items.append(.step(ScenarioStep(line: cursor.line, text: text, action: action)))
        case "!":
            let step = try parsePerformed(&cursor, mustFail: true)
            scenario.items.append(.step(ScenarioStep(line: cursor.line, text: text, action: step)))
        default:
            cursor.rewind()
            let step = try parsePerformed(&cursor, mustFail: false)
            scenario.items.append(.step(ScenarioStep(line: cursor.line, text: text, action: step)))
        }
    }

    /// `app NAME [background-audio] [now-playing] [answers=grant|deny]`
    private mutating func parseDeclaration(_ cursor: inout LineCursor) throws(ScenarioParseError) -> AppDeclaration {
        let name = try cursor.next("an app name ([a-z][a-z0-9-]*)")
        guard ScenarioSyntax.isAppName(name.text), name.text != "system" else {
            throw cursor.error(expected: "an app name ([a-z][a-z0-9-]*, not `system`)", found: name)
        }
        guard declared.insert(name.text).inserted else {
            throw cursor.error("app \(name.text) is already declared", at: name)
        }
        var declaration = AppDeclaration(name: name.text)
        var seen: Set<String> = []
        while let flag = cursor.peek {
            _ = try cursor.next("")
            let key = flag.text.hasPrefix("answers=") ? "answers=" : flag.text
            guard seen.insert(key).inserted else { throw cursor.error("\(key) is given twice", at: flag) }
            if let capability = AppCapabilities(name: flag.text) {
                declaration.capabilities.insert(capability)
                continue
            }
            switch flag.text {
            case "answers=grant": declaration.answer = .grant
            case "answers=deny": declaration.answer = .deny
            default:
                throw cursor.error(expected: "background-audio, now-playing or answers=grant|deny", found: flag)
            }
        }
        return declaration
    }

    /// `[!] NAME VERB ARGS [CODE]` or `[!] system VERB ARGS [CODE]`
    private mutating func parsePerformed(
        _ cursor: inout LineCursor, mustFail: Bool
    ) throws(ScenarioParseError)
        -> ScenarioStep.Action
    {
        var outcome = ScenarioStep.Outcome.succeed
        if mustFail {
            outcome = .fail
            // A trailing error code belongs to `!`: strip it before reading the step.
            if cursor.remaining > 2, let last = cursor.tokens.last, let code = SessionError.Code(scenarioName: last.text) {
                outcome = .failWith(code)
                cursor.dropLast()
            }
        }
        let subject = try cursor.next("an app name or `system`")
        sawAppOrSystemStep = true
        let step: Step
        if subject.text == "system" {
            step = .system(try SystemEvent.parse(&cursor))
        } else {
            let app = try declaredApp(subject, cursor)
            step = .app(app, try StepSyntax.appCall(&cursor))
        }
        try cursor.expectEnd()
        return .perform(step, outcome)
    }

    /// `expect NAME event …`, `expect NAME no-events`, `expect NAME PROPERTY=VALUE…`
    private func parseExpectation(_ cursor: inout LineCursor) throws(ScenarioParseError) -> ScenarioStep.Action {
        let app = try declaredApp(try cursor.next("an app name"), cursor)
        let what = try cursor.next("`event`, `no-events` or PROPERTY=VALUE")
        switch what.text {
        case "event":
            let pattern = try StepSyntax.eventPattern(&cursor)
            try cursor.expectEnd()
            return .expectEvent(app, pattern)
        case "no-events":
            try cursor.expectEnd()
            return .expectNoEvents(app)
        default:
            var expectations = [try StepSyntax.propertyExpectation(what, cursor)]
            while !cursor.isAtEnd {
                expectations.append(try StepSyntax.propertyExpectation(try cursor.next(""), cursor))
            }
            return .expectProperties(app, expectations)
        }
    }

    private func declaredApp(_ token: Token, _ cursor: LineCursor) throws(ScenarioParseError) -> AppID {
        guard declared.contains(token.text) else {
            if token.text == "system" { throw cursor.error(expected: "an app name", found: token) }
            guard ScenarioSyntax.isAppName(token.text) else {
                throw cursor.error(expected: "an app name, `system`, `expect`, `app` or `!`", found: token)
            }
            throw cursor.error("app \(token.text) is not declared (add `app \(token.text)` before its first use)", at: token)
        }
        return AppID(token.text)
    }
}
