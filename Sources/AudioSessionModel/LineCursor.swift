/// One word of a line of text (a scenario step, a `system` command) and the column it starts
/// at (1-based).
package struct Token: Hashable, Sendable {
    package let text: String
    package let column: Int
}

/// Reads the words of one line, left to right, and builds syntax errors that point at them.
/// Shared by the scenario parser and `SystemEvent(parsing:)`.
package struct LineCursor {
    package let file: String
    package let line: Int
    package private(set) var tokens: [Token]
    /// The column just after the last word, where "end of line" errors point.
    package let endColumn: Int
    package private(set) var position = 0

    /// Splits a line into words; `#` starts a comment anywhere in the line.
    package init(file: String, line: Int, text: Substring) {
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
    package mutating func rewind() { position -= 1 }

    /// Removes the last word of the line (a `!` step's error code).
    package mutating func dropLast() { tokens.removeLast() }

    package var isAtEnd: Bool { position == tokens.count }
    package var remaining: Int { tokens.count - position }
    package var peek: Token? { isAtEnd ? nil : tokens[position] }

    /// The next word, or an error saying what was expected instead of the end of the line.
    package mutating func next(_ expected: @autoclosure () -> String) throws(TextSyntaxError) -> Token {
        guard let token = peek else { throw error(expected: expected(), found: nil) }
        position += 1
        return token
    }

    /// The next word, which must be one of `choices`.
    package mutating func next(oneOf choices: [String], _ what: String) throws(TextSyntaxError) -> Token {
        let token = try next("\(what) (\(choices.joined(separator: " ")))")
        guard choices.contains(token.text) else {
            throw error(expected: "\(what) (\(choices.joined(separator: " ")))", found: token)
        }
        return token
    }

    /// The line must have no more words.
    package func expectEnd() throws(TextSyntaxError) {
        if let token = peek { throw error(expected: "end of line", found: token) }
    }

    /// A parse error at `token` (or the end of the line) naming what was expected there.
    package func error(expected: String, found token: Token?) -> TextSyntaxError {
        let found = token.map { "'\($0.text)'" } ?? "end of line"
        return TextSyntaxError(
            file: file, line: line, column: token?.column ?? endColumn, message: "expected \(expected), found \(found)")
    }

    /// A parse error at `token` with a message of its own.
    package func error(_ message: String, at token: Token) -> TextSyntaxError {
        TextSyntaxError(file: file, line: line, column: token.column, message: message)
    }
}
