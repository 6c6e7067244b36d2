/// A shell-style pattern for the device policy's matches (§17): `*` any run of characters, `?`
/// one character, `[abc]`, `[a-z]` and `[!abc]` one of a set, `\` before a character that
/// character itself. Matched against a whole string, case-sensitively.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case character(Character)
        case any
        case one
        case set([ClosedRange<Character>], negated: Bool)
    }

    /// What was written.
    public let pattern: String
    let tokens: [Token]

    /// - Throws: `GlobError` naming what cannot be read (an unclosed `[`, an empty set, a `\`
    ///   at the end, a range backwards).
    public init(_ pattern: String) throws(GlobError) {
        self.pattern = pattern
        var tokens: [Token] = []
        var rest = pattern[...]
        while let first = rest.popFirst() {
            switch first {
            case "*": if tokens.last != .any { tokens.append(.any) }
            case "?": tokens.append(.one)
            case "\\":
                guard let escaped = rest.popFirst() else { throw GlobError(pattern, "a \\ at the end escapes nothing") }
                tokens.append(.character(escaped))
            case "[": tokens.append(try Self.set(&rest, in: pattern))
            default: tokens.append(.character(first))
            }
        }
        self.tokens = tokens
    }

    private static func set(_ rest: inout Substring, in pattern: String) throws(GlobError) -> Token {
        let negated = rest.first == "!"
        if negated { rest.removeFirst() }
        var ranges: [ClosedRange<Character>] = []
        while let first = rest.popFirst() {
            if first == "]", !ranges.isEmpty { return .set(ranges, negated: negated) }
            if first == "]" { throw GlobError(pattern, "an empty set []") }
            if rest.first == "-", rest.dropFirst().first.map({ $0 != "]" }) == true {
                rest.removeFirst()
                let last = rest.removeFirst()
                guard first <= last else { throw GlobError(pattern, "the range \(first)-\(last) runs backwards") }
                ranges.append(first...last)
            } else {
                ranges.append(first...first)
            }
        }
        throw GlobError(pattern, "a [ is never closed")
    }

    /// Whether the pattern matches the whole of `text`.
    public func matches(_ text: String) -> Bool {
        Self.match(tokens[...], Array(text)[...])
    }

    private static func match(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Character>) -> Bool {
        guard let token = tokens.first else { return text.isEmpty }
        switch token {
        case .any:
            var rest = text
            while true {
                if match(tokens.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .one: return !text.isEmpty && match(tokens.dropFirst(), text.dropFirst())
        case .character(let character):
            return text.first == character && match(tokens.dropFirst(), text.dropFirst())
        case .set(let ranges, let negated):
            guard let first = text.first, ranges.contains(where: { $0.contains(first) }) != negated else { return false }
            return match(tokens.dropFirst(), text.dropFirst())
        }
    }

    /// Whether every string this pattern matches is matched by `other` too (decided for the
    /// cases a policy table meets: the same pattern, `*`, or a pattern without wildcards).
    public func isCovered(by other: Glob) -> Bool {
        if other.pattern == pattern || other.tokens == [.any] { return true }
        let literal = tokens.allSatisfy { if case .character = $0 { true } else { false } }
        return literal && other.matches(String(tokens.map { if case .character(let c) = $0 { c } else { " " } }))
    }

    /// The pattern as written.
    public var description: String { pattern }
}

/// A pattern that cannot be read.
public struct GlobError: Error, Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    public let problem: String

    init(_ pattern: String, _ problem: String) {
        self.pattern = pattern
        self.problem = problem
    }

    public var description: String { "the pattern '\(pattern)' cannot be read: \(problem)" }
}
