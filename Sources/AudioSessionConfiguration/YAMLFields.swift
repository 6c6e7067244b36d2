import Yams

/// Reads typed values out of a YAML document, each error naming the file, the line and the key,
/// and an unknown key naming the keys that are known (a typo is never silently ignored).
struct YAMLFields {
    let file: String

    /// The document's top-level mapping (an empty document is an empty mapping).
    func document(_ text: String) throws(ConfigurationError) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError("\(file): not valid YAML: \(Self.describe(error))")
        } catch {
            throw ConfigurationError("\(file): not valid YAML: \(error)")
        }
    }

    func error(_ message: String, at node: Node?) -> ConfigurationError {
        if let line = node?.mark?.line { return ConfigurationError("\(file):\(line): \(message)") }
        return ConfigurationError("\(file): \(message)")
    }

    /// A mapping's values by key; every key must be one of `known`, given once. A null value
    /// (`key:` with nothing after it) counts as not given.
    func mapping(_ node: Node, _ name: String, known: [String]) throws(ConfigurationError) -> [String: Node] {
        guard case .mapping(let mapping) = node else {
            throw error("\(name) must be a mapping of keys to values", at: node)
        }
        var values: [String: Node] = [:]
        for (key, value) in mapping {
            guard let text = key.scalar?.string else { throw error("a key of \(name) must be a plain word", at: key) }
            guard known.contains(text) else {
                throw error("unknown key '\(text)' in \(name); known keys: \(known.joined(separator: ", "))", at: key)
            }
            guard values[text] == nil else { throw error("'\(text)' is given twice in \(name)", at: key) }
            if isNull(value) { continue }
            values[text] = value
        }
        return values
    }

    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func string(_ node: Node, _ name: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else { throw error("\(name) must be a single value", at: node) }
        return scalar.string
    }

    func double(_ node: Node, _ name: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard let value = node.float, value.isFinite else {
            throw error("\(name) must be a number, not '\(node.scalar?.string ?? "a list")'", at: node)
        }
        guard range.contains(value) else {
            throw error("\(name) must be within \(range.lowerBound)…\(range.upperBound), not \(value)", at: node)
        }
        return value
    }

    func int(_ node: Node, _ name: String, atLeast minimum: Int) throws(ConfigurationError) -> Int {
        guard let value = node.int else {
            throw error("\(name) must be a whole number, not '\(node.scalar?.string ?? "a list")'", at: node)
        }
        guard value >= minimum else { throw error("\(name) must be at least \(minimum), not \(value)", at: node) }
        return value
    }

    /// One of the enum's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, _ name: String, as: T.Type) throws(ConfigurationError) -> T
    where T.RawValue == String {
        let text = try string(node, name)
        guard let value = T(rawValue: text) else {
            throw error("\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'", at: node)
        }
        return value
    }

    /// A list (`[a, b]` or one item per line); a single value counts as a list of one.
    func list(_ node: Node, _ name: String) throws(ConfigurationError) -> [Node] {
        switch node {
        case .sequence(let sequence): return Array(sequence)
        case .scalar: return [node]
        default: throw error("\(name) must be a list", at: node)
        }
    }

    /// A list, or none when the key is not given.
    func list(_ node: Node?, _ name: String) throws(ConfigurationError) -> [Node] {
        guard let node else { return [] }
        return try list(node, name)
    }

    static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return "\(problem) (line \(mark.line), column \(mark.column))"
        default:
            return "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        }
    }
}
