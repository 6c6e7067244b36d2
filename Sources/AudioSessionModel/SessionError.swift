/// The one error type of the system: a stable code and a message naming the rule broken
/// (SPEC §12), e.g. "A4: background activation of a non-mixable session needs now-playing".
///
/// A failed step changes nothing (A7); the one exception is A5 (`!act`), whose
/// deactivation happens although the call reports the error.
public struct SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error code: an OSStatus value, shown as its four-character code where it has one.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The OSStatus value (decimal as in SPEC §12).
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        package init(_ fourCharacterCode: StaticString) {
            var value: UInt32 = 0
            fourCharacterCode.withUTF8Buffer { bytes in
                for byte in bytes { value = value << 8 | UInt32(byte) }
            }
            self.rawValue = Int32(bitPattern: value)
        }

        /// `msrv`: media services were lost (MS1).
        public static let mediaServicesFailed = Code("msrv")
        /// `!act`: the session was deactivated while its I/O ran (A5).
        public static let isBusy = Code("!act")
        /// `!cat`: the operation needs another category (IO2, HW4, HW5).
        public static let incompatibleCategory = Code("!cat")
        /// `!int`: a non-mixable background activation without now-playing (A4).
        public static let cannotInterruptOthers = Code("!int")
        /// `ent?`: the caller lacks the entitlement (system events from an app).
        public static let missingEntitlement = Code("ent?")
        /// `siri`: input cannot start while Siri is active (A3).
        public static let siriIsRecording = Code("siri")
        /// `!pla`: playback cannot start in the background (A4).
        public static let cannotStartPlaying = Code("!pla")
        /// `!rec`: recording cannot start in the background (A4).
        public static let cannotStartRecording = Code("!rec")
        /// -50: a parameter is invalid.
        public static let badParam = Code(rawValue: -50)
        /// `!pri`: a system session of higher priority is active (A3).
        public static let insufficientPriority = Code("!pri")
        /// `!res`: the hardware resource is not available (IO2, HW4, HW6).
        public static let resourceNotAvailable = Code("!res")
        /// `what`: an unspecified error.
        public static let unspecified = Code("what")

        /// Every code SPEC §12 names.
        public static let allCases: [Code] = [
            .mediaServicesFailed, .isBusy, .incompatibleCategory, .cannotInterruptOthers,
            .missingEntitlement, .siriIsRecording, .cannotStartPlaying, .cannotStartRecording,
            .badParam, .insufficientPriority, .resourceNotAvailable, .unspecified,
        ]

        /// The four-character code (`!pri`), or the decimal value when it is not printable (`-50`).
        public var fourCharacterCode: String {
            let value = UInt32(bitPattern: rawValue)
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(rawValue) }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The code written as in scenario files (`!pri`, `-50`), or `nil` if unknown.
        public init?(scenarioName: String) {
            guard let match = Self.allCases.first(where: { $0.fourCharacterCode == scenarioName }) else {
                return nil
            }
            self = match
        }

        public var description: String { fourCharacterCode }
    }

    public var code: Code
    /// What went wrong, starting with the SPEC rule id broken.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.fourCharacterCode) (\(code.rawValue)): \(message)" }
}
