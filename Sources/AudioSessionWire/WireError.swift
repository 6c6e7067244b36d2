/// Why bytes are not a valid message or frame. The decoder is total: every byte string gives
/// a message or one of these, never a crash.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of fault; stable across versions.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The bytes end inside a value.
        public static let truncated = Code(rawValue: 1)
        /// A frame's declared length is above `Frame.maximumSize`.
        public static let oversized = Code(rawValue: 2)
        /// A tag names no known message, case or value.
        public static let unknownTag = Code(rawValue: 3)
        /// A value is out of its range (a string that is not UTF-8, a count too large, NaN).
        public static let badValue = Code(rawValue: 4)
        /// Bytes are left after the message.
        public static let trailingBytes = Code(rawValue: 5)
        /// The first message was not a hello, or a second hello came.
        public static let unexpectedMessage = Code(rawValue: 6)
        /// The peer speaks another protocol version.
        public static let unsupportedVersion = Code(rawValue: 7)

        public var description: String {
            switch self {
            case .truncated: "truncated"
            case .oversized: "oversized"
            case .unknownTag: "unknown tag"
            case .badValue: "bad value"
            case .trailingBytes: "trailing bytes"
            case .unexpectedMessage: "unexpected message"
            case .unsupportedVersion: "unsupported version"
            default: "code \(rawValue)"
            }
        }
    }

    public var code: Code
    /// What was wrong, naming the field.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
