import Foundation

/// `os_log`'s C-style formats: `%{public}@`, `%{private}s`, `%d`, `%ld`, `%f`, `%.2f`, `%x`,
/// `%%`. Arguments marked `{private}` are written `<private>`; unmarked strings and objects too
/// (Apple's default), unmarked numbers as they are.
enum OSLogFormat {
    static func render(_ format: String, _ args: [any CVarArg]) -> String {
        var output = ""
        var remaining = args[...]
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            index = format.index(after: index)
            guard character == "%", index < format.endIndex else {
                output.append(character)
                continue
            }
            if format[index] == "%" {
                output.append("%")
                index = format.index(after: index)
                continue
            }
            var privacy = ""
            if format[index] == "{", let close = format[index...].firstIndex(of: "}") {
                privacy = String(format[format.index(after: index)..<close])
                index = format.index(after: close)
            }
            // The specifier: flags, width, precision, length, then its conversion letter.
            var specifier = "%"
            while index < format.endIndex {
                let next = format[index]
                specifier.append(next)
                index = format.index(after: index)
                if next == "@" || (next.isLetter && !"hlqLjzt".contains(next)) { break }
            }
            guard let argument = remaining.popFirst() else {
                output += specifier
                continue
            }
            let isText = specifier.hasSuffix("@") || specifier.hasSuffix("s")
            let text = isText ? "\(argument)" : String(format: specifier, argument)
            let hidden = privacy.contains("private") || privacy.contains("sensitive") || (isText && !privacy.contains("public"))
            output += hidden ? "<private>" : text
        }
        return output
    }
}
