import Synchronization

/// What one peer can make the daemon hold, and how often it is warned about (T5,
/// docs/trust-and-limits.md). Every value has a default a device can keep and a key in the
/// configuration file's `limits` section; a reload (SIGHUP) applies to connections accepted
/// after it.
public struct DaemonLimits: Sendable, Equatable {
    /// A connection must have its hello welcomed within this many seconds, or it is closed.
    public var helloTimeout: Double = 5
    /// The largest frame before the welcome, in bytes: a hello is a few dozen.
    public var preWelcomeFrame = 4096
    /// Connections open at once, in all and per uid; one more is refused (`closing`, -50).
    public var connections = 4096
    public var connectionsPerUID = 1024
    /// The unsent bytes a connection may have before it is closed as a slow consumer (its
    /// app departs): 1 MiB.
    public var queuedOutput = 1 << 20
    /// The same warning about the same uid is logged at most once per this many seconds.
    public var warningInterval: Double = 10

    public init() {}

    /// Why these limits cannot be used, or `nil`.
    public var problem: String? {
        if !(helloTimeout > 0) { return "hello-timeout must be positive, not \(helloTimeout)" }
        if preWelcomeFrame < 64 { return "pre-welcome-frame must be at least 64 bytes (a hello), not \(preWelcomeFrame)" }
        if connections < 1 || connectionsPerUID < 1 {
            return "max-connections and max-connections-per-uid must be at least 1"
        }
        if queuedOutput < 65536 { return "queued-output must be at least 65536 bytes, not \(queuedOutput)" }
        if !(warningInterval >= 0) { return "warning-interval must not be negative, not \(warningInterval)" }
        return nil
    }
}

/// The limits in force, shared by the server's parts and replaced on a reload.
public final class SharedLimits: Sendable {
    private let value: Mutex<DaemonLimits>

    public init(_ limits: DaemonLimits) { value = Mutex(limits) }

    public var current: DaemonLimits { value.withLock { $0 } }

    public func replace(with limits: DaemonLimits) { value.withLock { $0 = limits } }
}
