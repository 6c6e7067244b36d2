import AudioSessionModel

/// The words after an app name, after `system`, after `event`, and `PROPERTY=VALUE`.
enum StepSyntax {
    static let appVerbs = [
        "category", "mode", "activate", "deactivate", "start-output", "stop-output", "start-input", "stop-input",
        "background", "foreground", "request-permission", "override", "prefer-input",
        "input-data-source", "prefer", "input-gain",
    ]

    /// `category CATEGORY [mode=MODE] [options=OPT,…]`, `mode MODE`, `activate`, …
    static func appCall(_ cursor: inout LineCursor) throws(ScenarioParseError) -> AppCall {
        let verb = try cursor.next(oneOf: appVerbs, "an app verb")
        switch verb.text {
        case "category":
            let category = try category(&cursor)
            var mode: Mode?
            var options: CategoryOptions?
            while let argument = cursor.peek {
                _ = try cursor.next("")
                if argument.text.hasPrefix("mode="), mode == nil {
                    mode = try self.mode(String(argument.text.dropFirst(5)), argument, cursor)
                } else if argument.text.hasPrefix("options="), options == nil {
                    guard let parsed = ScenarioSyntax.options(String(argument.text.dropFirst(8))) else {
                        throw cursor.error(
                            expected: "options=OPT,OPT… of \(CategoryOptions.named.map(\.name).joined(separator: " "))",
                            found: argument)
                    }
                    options = parsed
                } else {
                    throw cursor.error(expected: "mode=MODE or options=OPT,OPT… (each at most once)", found: argument)
                }
            }
            return .setCategory(category, mode: mode ?? .default, options: options ?? [])
        case "mode":
            let token = try cursor.next("a mode")
            return .setMode(try mode(token.text, token, cursor))
        case "activate": return .setActive(true)
        case "deactivate":
            guard cursor.peek != nil else { return .setActive(false) }
            _ = try cursor.next(oneOf: ["notify-others"], "an option")
            return .setActive(false, options: .notifyOthersOnDeactivation)
        case "start-output": return .startOutput
        case "stop-output": return .stopOutput
        case "start-input": return .startInput
        case "stop-input": return .stopInput
        case "override":
            return .overrideOutput(
                try cursor.next(oneOf: ["speaker", "none"], "an override").text == "speaker" ? .speaker : .none)
        case "prefer-input":
            let uid = try cursor.next("a UID or none")
            guard Port.isValidUID(uid.text) else { throw cursor.error(expected: "a UID or none", found: uid) }
            return .setPreferredInput(uid.text == "none" ? nil : uid.text)
        case "prefer":
            var preferences = [try preference(try cursor.next("KEY=VALUE"), cursor)]
            while let token = cursor.peek {
                _ = try cursor.next("")
                preferences.append(try preference(token, cursor))
            }
            return .setPreferences(preferences)
        case "input-gain":
            let token = try cursor.next("an input gain (a number)")
            guard let gain = ScenarioValue.number(token.text) else {
                throw cursor.error(expected: "an input gain (a number)", found: token)
            }
            return .setInputGain(gain)
        case "input-data-source": return .setInputDataSource(try cursor.next("a data source name").text)
        case "background": return .setAppState(.background)
        case "foreground": return .setAppState(.foreground)
        default: return .requestRecordPermission
        }
    }

    /// The event after `expect NAME event`, with its optional fields.
    static func eventPattern(_ cursor: inout LineCursor) throws(ScenarioParseError) -> EventPattern {
        let kinds = [
            "interruption", "route-change", "silence-secondary-audio-hint", "media-services-lost",
            "media-services-reset", "output-volume", "record-permission",
        ]
        let kind = try cursor.next(oneOf: kinds, "an event")
        switch kind.text {
        case "interruption":
            if try cursor.next(oneOf: ["began", "ended"], "began or ended").text == "began" {
                let fields = try fields(&cursor, allowed: ["reason"])
                return .interruptionBegan(
                    reason: try fields["reason"].map { (token) throws(ScenarioParseError) in
                        try choice(token, ["default": .default, "builtInMicMuted": .builtInMicMuted], "reason", cursor)
                    })
            }
            let fields = try fields(&cursor, allowed: ["should-resume"])
            return .interruptionEnded(
                shouldResume: try fields["should-resume"].map { (token) throws(ScenarioParseError) in
                    try choice(token, ["true": true, "false": false], "should-resume", cursor)
                })
        case "route-change":
            let fields = try fields(&cursor, allowed: ["reason", "previous", "current"])
            guard let reasonToken = fields["reason"] else {
                throw cursor.error(expected: "reason=REASON", found: cursor.peek)
            }
            let reasons = Dictionary(uniqueKeysWithValues: RouteChangeReason.allCases.map { ($0.description, $0) })
            let reason = try choice(reasonToken, reasons, "reason", cursor)
            return .routeChange(
                reason: reason, previous: try route(fields["previous"], cursor), current: try route(fields["current"], cursor))
        case "silence-secondary-audio-hint":
            let type = try cursor.next(oneOf: ["begin", "end"], "begin or end")
            return .silenceSecondaryAudioHint(type.text == "begin" ? .begin : .end)
        case "media-services-lost": return .mediaServicesLost
        case "media-services-reset": return .mediaServicesReset
        case "output-volume":
            let token = try cursor.next("a volume (a number)")
            guard let volume = ScenarioValue.number(token.text) else {
                throw cursor.error(expected: "a volume (a number)", found: token)
            }
            return .outputVolume(volume)
        default:
            return .recordPermission(
                granted: try cursor.next(oneOf: ["granted", "denied"], "granted or denied").text == "granted")
        }
    }

    /// `sample-rate=HZ`, `io-buffer=SECONDS`, `input-channels=N`, `output-channels=N`.
    private static func preference(_ token: Token, _ cursor: LineCursor) throws(ScenarioParseError) -> HardwarePreference {
        let expected = "sample-rate=HZ, io-buffer=SECONDS, input-channels=N or output-channels=N"
        let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let value = ScenarioValue.number(String(parts[1])) else {
            throw cursor.error(expected: expected, found: token)
        }
        switch parts[0] {
        case "sample-rate": return .sampleRate(value)
        case "io-buffer": return .ioBufferDuration(value)
        case "input-channels", "output-channels":
            guard value == value.rounded(), abs(value) < 1_000_000 else {
                throw cursor.error(expected: "a whole number of channels", found: token)
            }
            return parts[0] == "input-channels" ? .inputChannels(Int(value)) : .outputChannels(Int(value))
        default: throw cursor.error(expected: expected, found: token)
        }
    }

    /// `PROPERTY=VALUE`.
    static func propertyExpectation(_ token: Token, _ cursor: LineCursor) throws(ScenarioParseError) -> PropertyExpectation {
        let names = ScenarioProperty.allCases.map(\.rawValue).joined(separator: " ")
        let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let property = ScenarioProperty(rawValue: String(parts[0])) else {
            throw cursor.error(expected: "`event`, `no-events` or PROPERTY=VALUE with PROPERTY one of: \(names)", found: token)
        }
        switch property.parse(String(parts[1])) {
        case .success(let value): return PropertyExpectation(property: property, expected: value)
        case .failure(let expected):
            throw cursor.error(expected: "\(property.rawValue)=VALUE with VALUE \(expected.text)", found: token)
        }
    }

    private static func category(_ cursor: inout LineCursor) throws(ScenarioParseError) -> Category {
        let token = try cursor.next(oneOf: Category.allCases.map(\.name), "a category")
        return Category(name: token.text)!
    }

    private static func mode(_ text: String, _ token: Token, _ cursor: LineCursor) throws(ScenarioParseError) -> Mode {
        guard let mode = Mode(name: text) else {
            throw cursor.error(expected: "a mode (\(Mode.allCases.map(\.name).joined(separator: " ")))", found: token)
        }
        return mode
    }

    /// `KEY=VALUE` words until the end of the line, each key allowed and given once.
    private static func fields(_ cursor: inout LineCursor, allowed: [String]) throws(ScenarioParseError) -> [String: FieldValue] {
        var fields: [String: FieldValue] = [:]
        while let token = cursor.peek {
            _ = try cursor.next("")
            let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let expected = allowed.map { "\($0)=…" }.joined(separator: " or ")
            guard parts.count == 2, allowed.contains(String(parts[0])), fields[String(parts[0])] == nil else {
                throw cursor.error(expected: "\(expected) (each at most once)", found: token)
            }
            fields[String(parts[0])] = FieldValue(text: String(parts[1]), token: token)
        }
        return fields
    }

    private static func choice<T>(
        _ field: FieldValue, _ choices: [String: T], _ key: String, _ cursor: LineCursor
    )
        throws(ScenarioParseError) -> T
    {
        guard let value = choices[field.text] else {
            throw cursor.error(expected: "\(key)=\(choices.keys.sorted().joined(separator: "|"))", found: field.token)
        }
        return value
    }

    private static func route(_ field: FieldValue?, _ cursor: LineCursor) throws(ScenarioParseError) -> String? {
        guard let field else { return nil }
        guard let route = ScenarioSyntax.route(field.text) else {
            throw cursor.error(expected: "a route INPUTS>OUTPUTS of port types joined by `+`, `-` for none", found: field.token)
        }
        return route
    }

    struct FieldValue {
        let text: String
        let token: Token
    }
}
