import AudioSessionEngine
import AudioSessionModel

/// §18 CL6: how calls of programs that never heard of us are found and what they are —
/// `policy.calls` in the configuration file, reloaded on SIGHUP (a change applies to calls that
/// begin afterwards).
public struct CallPolicy: Hashable, Sendable {
    /// What a detected call is.
    public enum Action: Hashable, Sendable, CustomStringConvertible {
        /// An app of its own whose session the runtime hosts, with this intent (CL3).
        case session(DevicePolicy.Intent)
        /// A system call (I4) while it lasts; POL5 applies as for a stream of role phone.
        case systemCall
        /// Not a call: its streams stay what they were (a DAW that records while it plays back).
        case ignore

        public var description: String {
            switch self {
            case .session(let intent): "session \(intent)"
            case .systemCall: "system call"
            case .ignore: "ignore"
            }
        }
    }

    /// Which programs an entry is for: by `application.name` and `application.process.binary`.
    public typealias Entry = DevicePolicy.Entry<DevicePolicy.StreamMatch, Action>

    /// CL2, CL5: detection on or off (default on).
    public var detect: Bool
    /// CL2: how long a program records and plays at once before it is in a call (ms).
    public var afterMs: UInt64
    /// CL5: how long after its last recording a call ends (ms).
    public var hangoverMs: UInt64
    /// CL3: what a detected call is when no entry matches.
    public var action: Action
    /// CL6: entries by program, first match wins.
    public var entries: [Entry]

    /// CL3's default intent: playAndRecord, voiceChat, no options (non-mixable, as an iOS VoIP app).
    public static let voiceChat = DevicePolicy.Intent(unchecked: .playAndRecord, mode: .voiceChat)

    /// The accepted ranges of the times (CL6: a negative or absurd time is refused).
    public static let afterRange: ClosedRange<UInt64> = 0...10_000
    public static let hangoverRange: ClosedRange<UInt64> = 100...120_000

    public init(
        detect: Bool = true, afterMs: UInt64 = 500, hangoverMs: UInt64 = 2000, action: Action = .session(voiceChat),
        entries: [Entry] = []
    ) {
        self.detect = detect
        self.afterMs = afterMs
        self.hangoverMs = hangoverMs
        self.action = action
        self.entries = entries
    }

    /// What a program's call is, and which entry said so.
    public func action(for program: StreamFacts) -> (action: Action, origin: String) {
        for entry in entries where entry.match.matches(program) { return (entry.action, entry.origin) }
        return (action, "policy.calls (CL3)")
    }
}
