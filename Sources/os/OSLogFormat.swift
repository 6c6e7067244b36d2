/// `os_log`'s C-style formats: `%{public}@`, `%{private}s`, `%d`, `%ld`, `%u`, `%x`, `%f`,
/// `%.2f`, `%%`. Arguments marked `{private}` are written `<private>`; unmarked strings and objects
/// too (Apple's default), unmarked numbers as they are. (Written without Foundation: this module
/// is imported by packages that must not load it, see UnfairLock.swift.)
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
            var specifier = ""
            while index < format.endIndex {
                let next = format[index]
                specifier.append(next)
                index = format.index(after: index)
                if next == "@" || (next.isLetter && !"hlqLjzt".contains(next)) { break }
            }
            guard let argument = remaining.popFirst(), let conversion = specifier.last else {
                output += "%" + specifier
                continue
            }
            let isText = conversion == "@" || conversion == "s"
            let hidden = privacy.contains("private") || privacy.contains("sensitive") || (isText && !privacy.contains("public"))
            output += hidden ? "<private>" : text(of: argument, conversion, specifier)
        }
        return output
    }

    private static func text(of argument: any CVarArg, _ conversion: Character, _ specifier: String) -> String {
        switch conversion {
        case "d", "i", "u": return integer(argument).map { String($0) } ?? "\(argument)"
        case "x", "X":
            let hex = integer(argument).map { String($0, radix: 16, uppercase: conversion == "X") }
            return hex ?? "\(argument)"
        case "o": return integer(argument).map { String($0, radix: 8) } ?? "\(argument)"
        case "f", "F", "e", "g":
            guard let value = floating(argument) else { return "\(argument)" }
            let precision = specifier.firstIndex(of: ".").flatMap { dot in
                Int(specifier[specifier.index(after: dot)...].prefix { $0.isNumber })
            }
            return OSLogMessage.OSLogInterpolation.fixed(value, precision ?? 6)
        default: return "\(argument)"
        }
    }

    private static func integer(_ argument: Any) -> Int64? {
        switch argument {
        case let value as Int: Int64(value)
        case let value as Int32: Int64(value)
        case let value as Int64: value
        case let value as Int16: Int64(value)
        case let value as Int8: Int64(value)
        case let value as UInt: Int64(truncatingIfNeeded: value)
        case let value as UInt32: Int64(value)
        case let value as UInt64: Int64(truncatingIfNeeded: value)
        case let value as UInt16: Int64(value)
        case let value as UInt8: Int64(value)
        case let value as Bool: value ? 1 : 0
        default: nil
        }
    }

    private static func floating(_ argument: Any) -> Double? {
        switch argument {
        case let value as Double: value
        case let value as Float: Double(value)
        default: integer(argument).map(Double.init)
        }
    }
}
