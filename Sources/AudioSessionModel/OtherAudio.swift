/// A stream of a program that does not use us, playing on the device — on a sound server, a
/// stream of an app that never heard of audio sessions (SPEC OA1 "other audio"). It is not an
/// app: it has no session, is told nothing and never owns the route; the arbiter only counts it
/// (OA1), ducks it (D1), silences it (C11) and mutes it while a non-mixable session plays or a
/// system session is on (OA2, I4), as a mixable playback session would be.
public struct OtherAudio: Hashable, Sendable, CustomStringConvertible {
    /// Unique while it plays, of letters, digits and `. _ : -` (e.g. `pulse:42`).
    public var id: String
    /// What plays it (e.g. the application's name), for status; may be empty.
    public var name: String
    /// Its media role (`music`, `phone` …) when the server knows one.
    public var role: String?
    /// The uid of the process that plays it, when the server says (T4: a monitor of another
    /// uid does not see it); `nil` when unknown, and then it is a device-wide fact.
    public var uid: UInt32?

    public init(id: String, name: String = "", role: String? = nil, uid: UInt32? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.uid = uid
    }

    public var description: String {
        var text = id
        if let role { text += " role=\(role)" }
        if !name.isEmpty { text += " name=\(name)" }
        return text
    }

    /// Names and roles are at most 255 bytes of printable text: no control or format characters
    /// and no line or paragraph separators (U+0085, U+202E, U+2028 would spoof log lines and status).
    public static func isValidLabel(_ text: String) -> Bool {
        text.utf8.count <= 255
            && !text.unicodeScalars.contains {
                switch $0.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator: true
                default: false
                }
            }
    }
}

/// How the arbiter governs one stream of other audio right now.
public struct OtherAudioStatus: Hashable, Sendable {
    public var audio: OtherAudio
    /// D1, C11: the factor applied to its volume (1, the duck level, or 0).
    public var gain: Double
    /// OA2, I4: muted while a non-mixable app session plays or a system session is on.
    public var isMuted: Bool

    public init(audio: OtherAudio, gain: Double, isMuted: Bool) {
        self.audio = audio
        self.gain = gain
        self.isMuted = isMuted
    }
}
