/// An app's id: a reverse-DNS string such as `com.example.music` (SPEC §0).
public struct AppID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// T3: the characters an app id may hold: ASCII letters and digits and `. _ -` (reverse-DNS
    /// style), 1 to 255 of them. Nothing else, so an id cannot spoof a log line or a status
    /// listing (no controls, no bidirectional overrides such as U+202E, no line separators such
    /// as U+2028 or U+0085).
    public static let allowedCharacters = "A–Z a–z 0–9 . _ -"

    /// Whether an app id may hold this character (`allowedCharacters`).
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || "._-".unicodeScalars.contains(scalar)
    }

    /// Why this id is not a valid app id, or `nil` when it is (`allowedCharacters`).
    public var problem: String? {
        guard !rawValue.isEmpty else { return "an app id must not be empty" }
        guard rawValue.utf8.count <= 255 else {
            return "an app id is at most 255 characters (this one has \(rawValue.utf8.count) bytes)"
        }
        for (offset, scalar) in rawValue.unicodeScalars.enumerated() {
            if !Self.isAllowed(scalar) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                return
                    "an app id is made of \(Self.allowedCharacters); U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) at position \(offset + 1) is not allowed"
            }
        }
        return nil
    }
}

/// Capabilities an app declares, fixed for its life (SPEC §0).
public struct AppCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Like UIBackgroundModes=audio: may play and record in the background (A4, D3, D5).
    public static let backgroundAudio = AppCapabilities(rawValue: 1)
    /// Owns the lock-screen player: may activate non-mixable from the background (A4).
    public static let nowPlaying = AppCapabilities(rawValue: 2)

    /// A capability by its name in hellos, scenarios and manifests: `background-audio`, `now-playing`.
    public init?(name: String) {
        switch name {
        case "background-audio": self = .backgroundAudio
        case "now-playing": self = .nowPlaying
        default: return nil
        }
    }

    /// The capabilities by name, or "nothing".
    public var names: String {
        var names: [String] = []
        if contains(.backgroundAudio) { names.append("background-audio") }
        if contains(.nowPlaying) { names.append("now-playing") }
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }
}

/// Whether an app is in the foreground or the background (SPEC §0, D3, D5).
public enum AppState: Hashable, Sendable, CustomStringConvertible {
    case foreground, background

    public var description: String { self == .foreground ? "foreground" : "background" }
}

/// The system's own sessions, which outrank every app (SPEC §0, I4).
public enum SystemSessionKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case call, alarm, siri

    public var description: String {
        switch self {
        case .call: "call"
        case .alarm: "alarm"
        case .siri: "siri"
        }
    }
}

/// Options of `setActive` (SPEC §13: notifyOthersOnDeactivation 1).
public struct SetActiveOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A6: end the interruptions this session caused with shouldResume.
    public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
}
