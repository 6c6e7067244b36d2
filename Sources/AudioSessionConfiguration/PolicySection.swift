import AudioSessionModel
import AudioSessionRuntime

/// §17: the configuration file's `policy:` — what streams and players that declare nothing
/// intend. Every entry is checked as an app's `setCategory` would be (O1, M1), every pattern
/// read, and an entry that an earlier one hides completely is an error (it could never apply).
enum PolicySection {
    static let keys = ["players", "streams", "duck-level-by-role", "other-audio", "calls", "players-pause-on-device-loss"]
    static let streamKeys = ["match", "session", "system", "other-audio"]
    static let streamMatchKeys = ["role", "application-name", "binary"]
    static let playerKeys = ["match", "category", "mode", "options", "ignore"]
    static let playerMatchKeys = ["identity", "bus-name"]
    static let intentKeys = ["category", "mode", "options"]
    /// POL1: what a player or a stream may be (no recording: nobody asked it to record).
    static let categories = ["playback", "ambient", "soloAmbient"]
    static let options = ["mixWithOthers", "duckOthers", "interruptSpokenAudioAndMixWithOthers"]

    static func read(_ node: YAMLNode, _ fields: YAMLFields) throws(ConfigurationError) -> DevicePolicy {
        let values = try fields.mapping(node, "policy", known: keys)
        var policy = DevicePolicy()
        policy.streams = try entries(
            values["streams"], "policy.streams", noun: "stream", fields, read: stream, hidden: DevicePolicy.hiddenStream)
        policy.players = try entries(
            values["players"], "policy.players", noun: "player", fields, read: player, hidden: DevicePolicy.hiddenPlayer)
        if let node = values["calls"] { policy.calls = try CallsSection.read(node, fields) }  // §18 CL6
        if let node = values["other-audio"] {
            // OA5: what other audio gets while a non-mixable app session plays.
            let text = try fields.string(node, "policy.other-audio")
            guard let treatment = OtherAudioTreatment(rawValue: text) else {
                throw fields.error("policy.other-audio (OA5) must be mute, duck or mix, not '\(text)'", at: node)
            }
            policy.otherAudio = treatment
        }
        if let node = values["players-pause-on-device-loss"] {
            policy.playersPauseOnDeviceLoss = try fields.bool(node, "policy.players-pause-on-device-loss")  // PL8
        }
        if let node = values["duck-level-by-role"] {
            guard case .mapping(let pairs, _) = node else {
                throw fields.error("policy.duck-level-by-role must map roles to levels (music: 0.1)", at: node)
            }
            for (key, value) in pairs {
                guard let role = key.text.map(DevicePolicy.role), OtherAudio.isValidLabel(role) else {
                    throw fields.error("policy.duck-level-by-role: a role must be a plain word", at: key)
                }
                guard policy.duckLevelByRole[role] == nil else {
                    throw fields.error("policy.duck-level-by-role: '\(role)' is given twice", at: key)
                }
                policy.duckLevelByRole[role] = try fields.double(value, "policy.duck-level-by-role.\(role) (POL3)", in: 0...1)
            }
        }
        return policy
    }

    /// A list of entries, first match wins: each read, and an entry that an earlier one hides
    /// completely is an error at the later one (it could never apply).
    private static func entries<Entry>(
        _ node: YAMLNode?, _ name: String, noun: String, _ fields: YAMLFields,
        read: (YAMLNode, String, YAMLFields) throws(ConfigurationError) -> Entry,
        hidden: ([Entry]) -> (later: Int, earlier: Int)?
    ) throws(ConfigurationError) -> [Entry] {
        let items = try fields.list(node, name)
        var entries: [Entry] = []
        for (index, item) in items.enumerated() { entries.append(try read(item, "\(name)[\(index + 1)]", fields)) }
        if let (later, earlier) = hidden(entries) {
            throw fields.error(
                "\(name)[\(later + 1)] never applies: \(name)[\(earlier + 1)] matches every \(noun) it matches",
                at: items[later])
        }
        return entries
    }

    /// POL2: one stream entry: a match and exactly one of session, system, other-audio.
    static func stream(
        _ node: YAMLNode, _ name: String, _ fields: YAMLFields
    ) throws(ConfigurationError)
        -> DevicePolicy.StreamEntry
    {
        let values = try fields.mapping(node, name, known: streamKeys)
        let match = try fields.mapping(requiredMatch(values, node, name, fields), "\(name).match", known: streamMatchKeys)
        let actions = ["session", "system", "other-audio"].filter { values[$0] != nil }
        guard actions.count == 1, let key = actions.first else {
            throw fields.error("\(name) must say one of session:, system: or other-audio: (it says \(actions.count))", at: node)
        }
        let action: DevicePolicy.StreamAction
        switch key {
        case "session":
            let intent = try fields.mapping(values["session"]!, "\(name).session", known: intentKeys)
            action = .session(try self.intent(intent, values["session"]!, "\(name).session", fields))
        case "system":
            let kind = try fields.string(values["system"]!, "\(name).system")
            switch kind {
            case "call": action = .system(.call)
            case "alarm": action = .system(.alarm)
            default: throw fields.error("\(name).system must be call or alarm, not '\(kind)'", at: values["system"])
            }
        default:
            guard values["other-audio"]?.text == "true" else {
                throw fields.error("\(name).other-audio must be true", at: values["other-audio"])
            }
            action = .otherAudio
        }
        return DevicePolicy.StreamEntry(
            match: DevicePolicy.StreamMatch(
                role: try glob(match["role"], "\(name).match.role", fields, spelled: DevicePolicy.role),
                applicationName: try glob(match["application-name"], "\(name).match.application-name", fields),
                binary: try glob(match["binary"], "\(name).match.binary", fields)),
            action: action, origin: "\(name) (\(fields.file):\(node.line))")
    }

    /// POL1: one player entry: a match and an intent, or ignore.
    static func player(
        _ node: YAMLNode, _ name: String, _ fields: YAMLFields
    ) throws(ConfigurationError)
        -> DevicePolicy.PlayerEntry
    {
        let values = try fields.mapping(node, name, known: playerKeys)
        let match = try fields.mapping(requiredMatch(values, node, name, fields), "\(name).match", known: playerMatchKeys)
        let action: DevicePolicy.PlayerAction
        if let ignore = values["ignore"] {
            guard ignore.text == "true" else { throw fields.error("\(name).ignore must be true", at: ignore) }
            if let other = intentKeys.first(where: { values[$0] != nil }) {
                throw fields.error("\(name) says ignore: and \(other): — a player ignored has no intent", at: values[other])
            }
            action = .ignore
        } else {
            action = .intent(try intent(values, node, name, fields))
        }
        return DevicePolicy.PlayerEntry(
            match: DevicePolicy.PlayerMatch(
                identity: try glob(match["identity"], "\(name).match.identity", fields),
                busName: try glob(match["bus-name"], "\(name).match.bus-name", fields)),
            action: action, origin: "\(name) (\(fields.file):\(node.line))")
    }

    static func requiredMatch(
        _ values: [String: YAMLNode], _ node: YAMLNode, _ name: String, _ fields: YAMLFields
    )
        throws(ConfigurationError) -> YAMLNode
    {
        guard let match = values["match"] else { throw fields.error("\(name) needs a match:", at: node) }
        return match
    }

    /// A category (default playback), mode and options, checked as setCategory checks them.
    /// `categories` and `options` are what the entry may say (POL1, POL2: a player's or stream's;
    /// CL6: a call's), `defaults` what it gets when it says nothing.
    static func intent(
        _ values: [String: YAMLNode], _ node: YAMLNode, _ name: String, _ fields: YAMLFields,
        categories: [String] = categories, options: [String] = options,
        defaults: (category: Category, mode: Mode) = (.playback, .default)
    )
        throws(ConfigurationError) -> DevicePolicy.Intent
    {
        var category = defaults.category
        if let node = values["category"] {
            let text = try fields.string(node, "\(name).category")
            guard categories.contains(text), let value = Category(name: text) else {
                throw fields.error(
                    "\(name).category must be \(categories.count == 1 ? "" : "one of ")\(categories.joined(separator: ", ")), not '\(text)'",
                    at: node)
            }
            category = value
        }
        var mode = defaults.mode
        if let node = values["mode"] {
            let text = try fields.string(node, "\(name).mode")
            guard let value = Mode(name: text) else {
                throw fields.error(
                    "\(name).mode: no mode '\(text)' (\(Mode.allCases.map(\.name).joined(separator: ", ")))", at: node)
            }
            mode = value
        }
        var chosen: CategoryOptions = []
        for item in try fields.list(values["options"], "\(name).options") {
            let text = try fields.string(item, "\(name).options")
            guard options.contains(text), let option = CategoryOptions(name: text) else {
                throw fields.error("\(name).options: '\(text)' is not one of \(options.joined(separator: ", "))", at: item)
            }
            chosen.insert(option)
        }
        do {
            return try DevicePolicy.Intent(category: category, mode: mode, options: chosen)
        } catch {
            throw fields.error("\(name): an app's setCategory would be refused: \(error)", at: node)
        }
    }

    static func glob(
        _ node: YAMLNode?, _ name: String, _ fields: YAMLFields, spelled: (String) -> String = { $0 }
    ) throws(ConfigurationError) -> Glob? {
        guard let node else { return nil }
        let text = spelled(try fields.string(node, name))
        do { return try Glob(text) } catch { throw fields.error("\(name): \(error)", at: node) }
    }
}
