/// One construct of an iOS Swift source that does not build on Linux.
public struct Finding: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case selectorObserver = "selector observer"
        case objc = "@objc"
        case selector = "#selector"
        case nsErrorLastCatch = "catch as NSError"
        case removeObserver = "removeObserver"
        case appleOnlyModule = "Apple-only module"
        case keyValueObserving = "key-value observing"
        case nsValueGetValue = "NSValue.getValue"
        case compiledOut = "compiled out on Linux"
    }

    public var kind: Kind
    public var line: Int
    public var column: Int
    public var message: String
    /// Whether `--fix` rewrites it.
    public var isFixable: Bool

    public init(kind: Kind, line: Int, column: Int, message: String, isFixable: Bool) {
        self.kind = kind
        self.line = line
        self.column = column
        self.message = message
        self.isFixable = isFixable
    }

    /// `line:column: fixable|manual: message`.
    public var description: String { "\(line):\(column): \(isFixable ? "fixable" : "manual"): \(message)" }
}

/// A text replacement by UTF-8 offsets of the original source.
struct Edit {
    var start: Int
    var end: Int
    var text: String
}

extension String {
    /// The text with the edits applied (they must not overlap).
    func applying(_ edits: [Edit]) -> String {
        var bytes = Array(utf8)
        for edit in edits.sorted(by: { $0.start > $1.start }) {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
