import AudioSessionEngine
import AudioSessionModel

/// §17: what programs that declare nothing intend — the sound server's streams that are no
/// app's (POL2) and the players of other programs (POL1) — as a device team or a user wrote it in
/// the configuration file. First match wins; what no entry matches gets the default. The
/// engine never sees this table: the runtime turns it into sessions, system sessions and other
/// audio.
public struct DevicePolicy: Hashable, Sendable {
    /// A category, mode and options an app could have set (C9, C10, O1, M1 checked).
    public struct Intent: Hashable, Sendable, CustomStringConvertible {
        public var category: Category
        public var mode: Mode
        public var options: CategoryOptions

        /// - Throws: the `SessionError` an app's `setCategory` would get (-50, naming its rule).
        public init(category: Category, mode: Mode = .default, options: CategoryOptions = []) throws(SessionError) {
            try Engine.checkConfiguration(category, mode, options)
            self.category = category
            self.mode = mode
            self.options = options
        }

        /// PL1's default: playback, default mode, no options (non-mixable, like a music app).
        public static let player = Intent(unchecked: .playback)

        init(unchecked category: Category, mode: Mode = .default) {
            self.category = category
            self.mode = mode
            options = []
        }

        public var description: String { "\(category)/\(mode) [\(options)]" }
    }

    /// Which streams an entry is for; a field not given matches anything.
    public struct StreamMatch: Hashable, Sendable {
        /// `media.role`.
        public var role: Glob?
        /// `application.name`.
        public var applicationName: Glob?
        /// `application.process.binary`.
        public var binary: Glob?

        public init(role: Glob? = nil, applicationName: Glob? = nil, binary: Glob? = nil) {
            self.role = role
            self.applicationName = applicationName
            self.binary = binary
        }

        func matches(_ stream: StreamFacts) -> Bool {
            Self.field(role, stream.role) && Self.field(applicationName, stream.applicationName)
                && Self.field(binary, stream.binary)
        }

        /// Every stream `self` matches is matched by `earlier` (so an entry after it never applies).
        func isHidden(by earlier: StreamMatch) -> Bool {
            Self.covers(earlier.role, role) && Self.covers(earlier.applicationName, applicationName)
                && Self.covers(earlier.binary, binary)
        }

        static func field(_ glob: Glob?, _ value: String?) -> Bool {
            guard let glob else { return true }
            return value.map(glob.matches) ?? false
        }

        static func covers(_ earlier: Glob?, _ later: Glob?) -> Bool {
            guard let earlier else { return true }
            guard let later else { return false }
            return later.isCovered(by: earlier)
        }
    }

    /// POL2: what a matching stream is.
    public enum StreamAction: Hashable, Sendable, CustomStringConvertible {
        /// §7: mixable, muted by non-mixable sessions (the default but for role phone).
        case otherAudio
        /// While it plays, a system session of this kind: `call` (I4) or `alarm`.
        case system(SystemSessionKind)
        /// A session of its own, id `stream.` + role + binary, active with output while it runs.
        case session(Intent)

        public var description: String {
            switch self {
            case .otherAudio: "other-audio"
            case .system(let kind): "system \(kind)"
            case .session(let intent): "session \(intent)"
            }
        }
    }

    /// One entry of a table, and where it was written (POL4 names it).
    public struct Entry<Match: Hashable & Sendable, Action: Hashable & Sendable>: Hashable, Sendable {
        public var match: Match
        public var action: Action
        /// `policy.streams[2] (FILE:LINE)`, or `built-in: …`.
        public var origin: String

        public init(match: Match, action: Action, origin: String) {
            self.match = match
            self.action = action
            self.origin = origin
        }
    }

    /// Which players an entry is for; a field not given matches anything.
    public struct PlayerMatch: Hashable, Sendable {
        /// Its MPRIS `Identity`.
        public var identity: Glob?
        /// The last part of its bus name (`vlc`, `chromium.instance42`).
        public var busName: Glob?

        public init(identity: Glob? = nil, busName: Glob? = nil) {
            self.identity = identity
            self.busName = busName
        }

        func matches(identity: String, busName: String) -> Bool {
            StreamMatch.field(self.identity, identity) && StreamMatch.field(self.busName, busName)
        }

        func isHidden(by earlier: PlayerMatch) -> Bool {
            StreamMatch.covers(earlier.identity, identity) && StreamMatch.covers(earlier.busName, busName)
        }
    }

    /// POL1: what a matching player is.
    public enum PlayerAction: Hashable, Sendable, CustomStringConvertible {
        case intent(Intent)
        /// Not governed: its streams stay other audio (§7).
        case ignore

        public var description: String {
            switch self {
            case .intent(let intent): "\(intent)"
            case .ignore: "ignore"
            }
        }
    }

    public typealias StreamEntry = Entry<StreamMatch, StreamAction>
    public typealias PlayerEntry = Entry<PlayerMatch, PlayerAction>

    /// The file's stream entries, in order (the built-in phone rule comes after them).
    public var streams: [StreamEntry]
    /// The file's player entries, in order.
    public var players: [PlayerEntry]
    /// POL3: a duck level (D1) for the streams of a role, instead of the device's.
    public var duckLevelByRole: [String: Double]
    /// OA5: what other audio gets while a non-mixable app session plays.
    public var otherAudio: OtherAudioTreatment
    /// §18 CL6: calls of programs that never heard of us.
    public var calls: CallPolicy
    /// PL8: players playing through a private device that goes away are paused (the default).
    public var playersPauseOnDeviceLoss = true

    public init(
        streams: [StreamEntry] = [], players: [PlayerEntry] = [], duckLevelByRole: [String: Double] = [:],
        otherAudio: OtherAudioTreatment = .mute, calls: CallPolicy = CallPolicy()
    ) {
        self.streams = streams
        self.players = players
        self.duckLevelByRole = duckLevelByRole
        self.otherAudio = otherAudio
        self.calls = calls
    }

    /// I4, POL2, CL2: a stream of role phone or communication (PipeWire's and WebRTC's word for
    /// a call) is a call unless an entry says otherwise.
    public static let builtInStreams: [StreamEntry] = [
        StreamEntry(
            match: StreamMatch(role: try! Glob("phone")), action: .system(.call), origin: "built-in: role phone is a call (I4)"),
        StreamEntry(
            match: StreamMatch(role: try! Glob("communication")), action: .system(.call),
            origin: "built-in: role communication is a call (CL2)"),
    ]

    /// The entries streams are matched against, in order — the file's, then the built-in ones —
    /// each built-in one with the file's entry that hides it, if one does (POL4 prints it).
    public var streamsInOrder: [(entry: StreamEntry, hiddenBy: String?)] {
        streams.map { ($0, nil) }
            + Self.builtInStreams.map { builtIn in
                (builtIn, streams.first { builtIn.match.isHidden(by: $0.match) }?.origin)
            }
    }

    /// What a stream that is no app's is, and which entry said so.
    public func action(for stream: StreamFacts) -> (action: StreamAction, origin: String) {
        for entry in streams + Self.builtInStreams where entry.match.matches(stream) { return (entry.action, entry.origin) }
        return (.otherAudio, "default: other audio (§7)")
    }

    /// What a player is, and which entry said so.
    public func action(forPlayer identity: String, busName: String) -> (action: PlayerAction, origin: String) {
        for entry in players where entry.match.matches(identity: identity, busName: busName) {
            return (entry.action, entry.origin)
        }
        return (.intent(.player), "default: playback (PL1)")
    }

    /// POL3: the duck level for a stream of `role` (nil: the device's).
    public func duckLevel(forRole role: String?) -> Double? { role.flatMap { duckLevelByRole[Self.role($0)] } }

    /// A media role as the policy compares it: without regard to case. PulseAudio's clients say
    /// `music` and `phone`; PipeWire's own say `Music` (pipewire-pulse turns that one into
    /// `music`) but `Navigation` and `Alarm` as they are.
    public static func role(_ text: String) -> String { text.lowercased() }

    /// The index of an entry that an earlier one hides completely, and that earlier one's index.
    public static func hidden<M, A>(_ entries: [Entry<M, A>], by isHidden: (M, M) -> Bool) -> (Int, Int)? {
        for later in entries.indices {
            for earlier in entries.indices where earlier < later {
                if isHidden(entries[later].match, entries[earlier].match) { return (later, earlier) }
            }
        }
        return nil
    }

    public static func hiddenStream<A>(_ entries: [Entry<StreamMatch, A>]) -> (Int, Int)? {
        hidden(entries) { $0.isHidden(by: $1) }
    }
    public static func hiddenPlayer(_ entries: [PlayerEntry]) -> (Int, Int)? { hidden(entries) { $0.isHidden(by: $1) } }
}

/// What the sound server says of a stream, as the policy matches it.
public struct StreamFacts: Hashable, Sendable {
    /// Its `media.role` as `DevicePolicy.role(_:)` spells it.
    public var role: String?
    public var applicationName: String?
    public var binary: String?

    public init(role: String? = nil, applicationName: String? = nil, binary: String? = nil) {
        self.role = role.map(DevicePolicy.role)
        self.applicationName = applicationName
        self.binary = binary
    }
}
