// `import os` for iOS code on Linux (README "Porting iOS code"): Apple's unified logging over
// swift-log. What a message says is kept; what `privacy:` hides on Apple's systems is hidden
// here too (`<private>`), unless the value is marked `.public` — as a release build logs it.

/// How much of an interpolated value a log message shows.
public struct OSLogPrivacy: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case auto, `public`, `private`, sensitive }
    let kind: Kind
    /// Strings and objects are private, numbers and booleans public (Apple's rule).
    public static let auto = OSLogPrivacy(kind: .auto)
    public static let `public` = OSLogPrivacy(kind: .public)
    public static let `private` = OSLogPrivacy(kind: .private)
    public static let sensitive = OSLogPrivacy(kind: .sensitive)
    public static func `private`(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .private }
    public static func auto(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .auto }
    public static func sensitive(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .sensitive }

    public struct Mask: Equatable, Sendable {
        public static let hash = Mask()
        public static let none = Mask()
    }
}

/// How an interpolated integer or floating-point value is written (the common formats).
public enum OSLogIntegerFormatting: Sendable {
    case decimal, hex, octal
    public static func decimal(explicitPositiveSign: Bool = false, minDigits: Int = 0) -> Self { .decimal }
    public static func hex(explicitPositiveSign: Bool = false, prefix: Bool = false, uppercase: Bool = false) -> Self { .hex }
}

public enum OSLogFloatFormatting: Sendable {
    case automatic
    case fixed(precision: Int)
    public static var fixed: Self { .fixed(precision: 6) }
}

public enum OSLogStringAlignment: Sendable {
    case none
    case left(columns: Int)
    case right(columns: Int)
}

/// A log message with interpolations, as `Logger`'s methods take it.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: OSLogInterpolation) { text = stringInterpolation.text }

    public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
        public mutating func appendLiteral(_ literal: String) { text += literal }

        mutating func append(_ shown: String, _ privacy: OSLogPrivacy, publicByDefault: Bool) {
            switch privacy.kind {
            case .public: text += shown
            case .auto: text += publicByDefault ? shown : "<private>"
            case .private, .sensitive: text += "<private>"
            }
        }

        public mutating func appendInterpolation<T: BinaryInteger>(
            _ value: @autoclosure () -> T, format: OSLogIntegerFormatting = .decimal,
            align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
        ) {
            integer(value(), format, align, privacy)
        }

        mutating func integer<T: BinaryInteger>(
            _ number: T, _ format: OSLogIntegerFormatting, _ align: OSLogStringAlignment, _ privacy: OSLogPrivacy
        ) {
            let shown =
                switch format {
                case .decimal: String(number)
                case .hex: String(number, radix: 16)
                case .octal: String(number, radix: 8)
                }
            append(Self.aligned(shown, align), privacy, publicByDefault: true)
        }

        mutating func floating(
            _ number: Double, _ format: OSLogFloatFormatting, _ align: OSLogStringAlignment, _ privacy: OSLogPrivacy
        ) {
            var shown = number.description
            if case .fixed(let precision) = format { shown = Self.fixed(number, precision) }
            append(Self.aligned(shown, align), privacy, publicByDefault: true)
        }

        public mutating func appendInterpolation<T: BinaryFloatingPoint & CustomStringConvertible>(
            _ value: @autoclosure () -> T,
            format: OSLogFloatFormatting = .automatic, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
        ) {
            floating(Double(value()), format, align, privacy)
        }

        // Int and Double themselves, so that a literal (`\(3)`) is a number, not a description.
        public mutating func appendInterpolation(
            _ value: @autoclosure () -> Int, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none,
            privacy: OSLogPrivacy = .auto
        ) {
            integer(value(), format, align, privacy)
        }

        public mutating func appendInterpolation(
            _ value: @autoclosure () -> Double, format: OSLogFloatFormatting = .automatic, align: OSLogStringAlignment = .none,
            privacy: OSLogPrivacy = .auto
        ) {
            floating(value(), format, align, privacy)
        }

        public mutating func appendInterpolation(_ value: @autoclosure () -> Bool, privacy: OSLogPrivacy = .auto) {
            append(value() ? "true" : "false", privacy, publicByDefault: true)
        }

        public mutating func appendInterpolation(
            _ value: @autoclosure () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
        ) {
            append(Self.aligned(value(), align), privacy, publicByDefault: false)
        }

        public mutating func appendInterpolation<T: CustomStringConvertible>(
            _ value: @autoclosure () -> T, align: OSLogStringAlignment = .none,
            privacy: OSLogPrivacy = .auto
        ) {
            append(Self.aligned(value().description, align), privacy, publicByDefault: false)
        }

        public mutating func appendInterpolation(_ value: @autoclosure () -> Any.Type, privacy: OSLogPrivacy = .auto) {
            append(String(describing: value()), privacy, publicByDefault: false)
        }

        public mutating func appendInterpolation(_ value: @autoclosure () -> (any Error)?, privacy: OSLogPrivacy = .auto) {
            append(value().map { String(describing: $0) } ?? "nil", privacy, publicByDefault: false)
        }

        static func aligned(_ text: String, _ align: OSLogStringAlignment) -> String {
            switch align {
            case .none: return text
            case .left(let columns): return text + String(repeating: " ", count: max(0, columns - text.count))
            case .right(let columns): return String(repeating: " ", count: max(0, columns - text.count)) + text
            }
        }

        static func fixed(_ value: Double, _ precision: Int) -> String {
            guard value.isFinite else { return value.description }
            var scale = 1.0
            for _ in 0..<max(0, precision) { scale *= 10 }
            let rounded = (abs(value) * scale).rounded(.toNearestOrEven)  // as printf rounds an exact half
            let whole = Int(rounded / scale)
            let fraction = Int(rounded - Double(whole) * scale)
            let sign = value < 0 && rounded != 0 ? "-" : ""
            guard precision > 0 else { return sign + String(whole) }
            let digits = String(fraction)
            return sign + String(whole) + "." + String(repeating: "0", count: max(0, precision - digits.count)) + digits
        }
    }
}
