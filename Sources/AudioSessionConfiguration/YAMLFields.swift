/// Reads typed values out of a YAML document, each error naming the file, the line and the key,
/// and an unknown key naming the keys that are known (a typo is never silently ignored).
struct YAMLFields {
    let file: String

    /// The document's root (`nil` for an empty document).
    func document(_ text: String) throws(ConfigurationError) -> YAMLNode? {
        try YAMLDocument.parse(text, file: file)
    }

    func error(_ message: String, at node: YAMLNode?) -> ConfigurationError {
        if let line = node?.line { return ConfigurationError("\(file):\(line): \(message)") }
        return ConfigurationError("\(file): \(message)")
    }

    /// A mapping's values by key; every key must be one of `known`, given once. A null value
    /// (`key:` with nothing after it) counts as not given.
    func mapping(_ node: YAMLNode, _ name: String, known: [String]) throws(ConfigurationError) -> [String: YAMLNode] {
        guard case .mapping(let pairs, _) = node else {
            throw error("\(name) must be a mapping of keys to values", at: node)
        }
        var values: [String: YAMLNode] = [:]
        var seen: Set<String> = []
        for (key, value) in pairs {
            guard let text = key.text else { throw error("a key of \(name) must be a plain word", at: key) }
            guard known.contains(text) else {
                throw error("unknown key '\(text)' in \(name); known keys: \(known.joined(separator: ", "))", at: key)
            }
            guard seen.insert(text).inserted else { throw error("'\(text)' is given twice in \(name)", at: key) }
            if isNull(value) { continue }
            values[text] = value
        }
        return values
    }

    func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let text, let plain, _) = node, plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// `true` or `false`, else an error naming the field.
    func bool(_ node: YAMLNode, _ name: String) throws(ConfigurationError) -> Bool {
        guard let text = node.text, ["true", "false"].contains(text) else {
            throw error("\(name) must be true or false", at: node)
        }
        return text == "true"
    }

    func string(_ node: YAMLNode, _ name: String) throws(ConfigurationError) -> String {
        guard let text = node.text else { throw error("\(name) must be a single value", at: node) }
        return text
    }

    func double(_ node: YAMLNode, _ name: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard let value = node.text.flatMap(Double.init), value.isFinite else {
            throw error("\(name) must be a number, not '\(node.text ?? "a list")'", at: node)
        }
        guard range.contains(value) else {
            throw error("\(name) must be within \(range.lowerBound)…\(range.upperBound), not \(value)", at: node)
        }
        return value
    }

    func int(_ node: YAMLNode, _ name: String, atLeast minimum: Int) throws(ConfigurationError) -> Int {
        guard let value = node.text.flatMap({ Int($0) }) else {
            throw error("\(name) must be a whole number, not '\(node.text ?? "a list")'", at: node)
        }
        guard value >= minimum else { throw error("\(name) must be at least \(minimum), not \(value)", at: node) }
        return value
    }

    /// One of the enum's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ name: String, as: T.Type) throws(ConfigurationError) -> T
    where T.RawValue == String {
        let text = try string(node, name)
        guard let value = T(rawValue: text) else {
            throw error("\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'", at: node)
        }
        return value
    }

    /// A list (`[a, b]` or one item per line); a single value counts as a list of one.
    func list(_ node: YAMLNode, _ name: String) throws(ConfigurationError) -> [YAMLNode] {
        switch node {
        case .sequence(let items, _): return items
        case .scalar: return [node]
        case .mapping: throw error("\(name) must be a list", at: node)
        }
    }

    /// A list, or none when the key is not given.
    func list(_ node: YAMLNode?, _ name: String) throws(ConfigurationError) -> [YAMLNode] {
        guard let node else { return [] }
        return try list(node, name)
    }
}
