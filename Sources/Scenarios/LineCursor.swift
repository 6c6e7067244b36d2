/// One word of a scenario line and the column it starts at (1-based).
struct Token: Hashable, Sendable {
    let text: String
    let column: Int
}

/// Reads the words of one line, left to right, and builds parse errors that point at them.
struct LineCursor {
    let file: String
    let line: Int
    private(set) var tokens: [Token]
    /// The column just after the last word, where "end of line" errors point.
    let endColumn: Int
    private(set) var position = 0

    /// Splits a line into words; `#` starts a comment anywhere in the line.
    init(file: String, line: Int, text: Substring) {
        self.file = file
        self.line = line
        var tokens: [Token] = []
        var current = ""
        var start = 0
        var column = 0
        for character in text {
            column += 1
            if character == "#" { break }
            if character == " " || character == "\t" {
                if !current.isEmpty { tokens.append(Token(text: current, column: start)) }
                current = ""
            } else {
                if current.isEmpty { start = column }
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(Token(text: current, column: start)) }
        self.tokens = tokens
        self.endColumn = tokens.last.map { $0.column + $0.text.count } ?? 1
    }

    /// Steps back over the word just read.
    mutating func rewind() { position -= 1 }

    /// Removes the last word of the line (a `!` step's error code).
    mutating func dropLast() { tokens.removeLast() }

    var isAtEnd: Bool { position == tokens.count }
    var remaining: Int { tokens.count - position }
    var peek: Token? { isAtEnd ? nil : tokens[position] }

    /// The next word, or an error saying what was expected instead of the end of the line.
    mutating func next(_ expected: @autoclosure () -> String) throws(ScenarioParseError) -> Token {
        guard let token = peek else { throw error(expected: expected(), found: nil) }
        position += 1
        return token
    }

    /// The next word, which must be one of `choices`.
    mutating func next(oneOf choices: [String], _ what: String) throws(ScenarioParseError) -> Token {
        let token = try next("\(what) (\(choices.joined(separator: " ")))")
        guard choices.contains(token.text) else {
            throw error(expected: "\(what) (\(choices.joined(separator: " ")))", found: token)
        }
        return token
    }

    /// The line must have no more words.
    func expectEnd() throws(ScenarioParseError) {
        if let token = peek { throw error(expected: "end of line", found: token) }
    }

    /// A parse error at `token` (or the end of the line) naming what was expected there.
    func error(expected: String, found token: Token?) -> ScenarioParseError {
        let found = token.map { "'\($0.text)'" } ?? "end of line"
        return ScenarioParseError(
            file: file, line: line, column: token?.column ?? endColumn, message: "expected \(expected), found \(found)")
    }

    /// A parse error at `token` with a message of its own.
    func error(_ message: String, at token: Token) -> ScenarioParseError {
        ScenarioParseError(file: file, line: line, column: token.column, message: message)
    }
}
