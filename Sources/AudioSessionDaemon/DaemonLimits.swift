/// What one peer can make the daemon hold, and how often it is warned about (README "Trust and
/// limits"). Every value has a default a device can keep.
public struct DaemonLimits: Sendable {
    /// A connection must have its hello welcomed within this many seconds, or it is closed.
    public var helloTimeout: Double = 5
    /// The largest frame before the welcome, in bytes: a hello is a few dozen.
    public var preWelcomeFrame = 4096
    /// Connections open at once, in all and per uid; one more is refused (`closing`, -50).
    public var connections = 4096
    public var connectionsPerUID = 1024
    /// The same warning about the same uid is logged at most once per this many seconds.
    public var warningInterval: Double = 10

    public init() {}
}
