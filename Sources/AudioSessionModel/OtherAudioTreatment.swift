/// OA5: what the streams of programs that never heard of us get while a non-mixable app
/// session plays — the device's choice (`policy.other-audio`).
public enum OtherAudioTreatment: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Muted (OA4): a device where one source plays at a time. The default.
    case mute
    /// Ducked to the duck level (D1).
    case duck
    /// Untouched: a desktop, where a game or a video keeps its sound while music plays.
    case mix

    public var description: String { rawValue }
}
