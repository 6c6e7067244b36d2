import AudioSessionModel
import AudioSessionRuntime

/// §18 CL6: the configuration file's `policy.calls` — how calls of programs that never heard of
/// us are found (`detect`, `after-ms`, `hangover-ms`) and what they are (`intent:` or
/// `system: call`; entries under `programs:` by application name or binary: `ignore: true`, an
/// `intent:` or `system: call`). Every mistake names file:line; a bad file changes nothing.
enum CallsSection {
    static let keys = ["detect", "after-ms", "hangover-ms", "intent", "system", "programs"]
    static let programKeys = ["match", "intent", "system", "ignore"]
    static let matchKeys = ["application-name", "binary"]
    /// What a call's session may be: it records and plays.
    static let categories = ["playAndRecord"]
    static let options = ["mixWithOthers", "duckOthers", "allowBluetooth", "allowBluetoothA2DP", "defaultToSpeaker"]

    static func read(_ node: YAMLNode, _ fields: YAMLFields) throws(ConfigurationError) -> CallPolicy {
        let values = try fields.mapping(node, "policy.calls", known: keys)
        var policy = CallPolicy()
        if let node = values["detect"] { policy.detect = try fields.bool(node, "policy.calls.detect") }
        if let node = values["after-ms"] {
            policy.afterMs = try milliseconds(node, "policy.calls.after-ms (CL2)", in: CallPolicy.afterRange, fields)
        }
        if let node = values["hangover-ms"] {
            policy.hangoverMs = try milliseconds(node, "policy.calls.hangover-ms (CL5)", in: CallPolicy.hangoverRange, fields)
        }
        if let action = try action(values, node, "policy.calls", fields, ignorable: false) { policy.action = action }
        let items = try fields.list(values["programs"], "policy.calls.programs")
        for (index, item) in items.enumerated() {
            let name = "policy.calls.programs[\(index + 1)]"
            let entry = try fields.mapping(item, name, known: programKeys)
            let match = try fields.mapping(
                PolicySection.requiredMatch(entry, item, name, fields), "\(name).match", known: matchKeys)
            guard let action = try action(entry, item, name, fields, ignorable: true) else {
                throw fields.error("\(name) must say one of intent:, system: call or ignore: true", at: item)
            }
            policy.entries.append(
                CallPolicy.Entry(
                    match: DevicePolicy.StreamMatch(
                        applicationName: try PolicySection.glob(
                            match["application-name"], "\(name).match.application-name", fields),
                        binary: try PolicySection.glob(match["binary"], "\(name).match.binary", fields)),
                    action: action, origin: "\(name) (\(fields.file):\(item.line))"))
        }
        if let (later, earlier) = DevicePolicy.hiddenStream(policy.entries) {
            throw fields.error(
                "policy.calls.programs[\(later + 1)] never applies: policy.calls.programs[\(earlier + 1)] matches every program it matches",
                at: items[later])
        }
        return policy
    }

    /// A time in milliseconds: a whole number within the range.
    static func milliseconds(
        _ node: YAMLNode, _ name: String, in range: ClosedRange<UInt64>, _ fields: YAMLFields
    ) throws(ConfigurationError) -> UInt64 {
        guard let text = node.text, let value = Int64(text) else {
            throw fields.error("\(name) must be a whole number of milliseconds, not '\(node.text ?? "a list")'", at: node)
        }
        guard value >= 0, range.contains(UInt64(value)) else {
            throw fields.error("\(name) must be within \(range.lowerBound)…\(range.upperBound) ms, not \(value)", at: node)
        }
        return UInt64(value)
    }

    /// At most one of `intent:`, `system: call` and (for an entry) `ignore: true`; nil for none.
    static func action(
        _ values: [String: YAMLNode], _ node: YAMLNode, _ name: String, _ fields: YAMLFields, ignorable: Bool
    ) throws(ConfigurationError) -> CallPolicy.Action? {
        let given = ["intent", "system", "ignore"].filter { values[$0] != nil }
        guard given.count <= 1 else {
            throw fields.error("\(name) says \(given.joined(separator: " and ")): one of them, please", at: node)
        }
        if let ignore = values["ignore"] {
            guard ignorable, ignore.text == "true" else { throw fields.error("\(name).ignore must be true", at: ignore) }
            return .ignore
        }
        if let system = values["system"] {
            guard system.text == "call" else {
                throw fields.error("\(name).system must be call, not '\(system.text ?? "a list")'", at: system)
            }
            return .systemCall
        }
        guard let intent = values["intent"] else { return nil }
        let fieldsOfIntent = try fields.mapping(intent, "\(name).intent", known: PolicySection.intentKeys)
        return .session(try self.intent(fieldsOfIntent, intent, "\(name).intent", fields))
    }

    /// CL3: a call's intent — playAndRecord (a call records and plays), a mode (voiceChat by
    /// default), options — checked as an app's setCategory would be (O1, M1).
    static func intent(
        _ values: [String: YAMLNode], _ node: YAMLNode, _ name: String, _ fields: YAMLFields
    ) throws(ConfigurationError) -> DevicePolicy.Intent {
        try PolicySection.intent(
            values, node, name, fields, categories: categories, options: options, defaults: (.playAndRecord, .voiceChat))
    }
}
