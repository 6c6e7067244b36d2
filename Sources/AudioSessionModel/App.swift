/// An app's id: a reverse-DNS string such as `com.example.music` (SPEC §0).
public struct AppID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Capabilities an app declares, fixed for its life (SPEC §0).
public struct AppCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Like UIBackgroundModes=audio: may play and record in the background (A4, D3, D5).
    public static let backgroundAudio = AppCapabilities(rawValue: 1)
    /// Owns the lock-screen player: may activate non-mixable from the background (A4).
    public static let nowPlaying = AppCapabilities(rawValue: 2)
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
