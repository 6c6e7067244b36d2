/// Text that does not parse — a scenario file, a `system` command: where, and what was
/// expected there.
public struct TextSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
