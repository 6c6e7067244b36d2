/// Signposts (Instruments' intervals and events) record nothing on Linux: `OSSignposter` and its
/// IDs are here so that code using them builds and runs unchanged.
public struct OSSignpostID: Hashable, Sendable {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public init(log: OSLog) { rawValue = 1 }
    public static let exclusive = OSSignpostID(0xEEEE_B0B5_B2B2_EEEE)
    public static let invalid = OSSignpostID(0)
    public static let null = OSSignpostID(0)
}

public struct OSSignpostIntervalState: Sendable {}

public struct OSSignposter: Sendable {
    public init() {}
    public init(subsystem: String, category: String) {}
    public init(logger: Logger) {}
    public init(logHandle: OSLog) {}
    public static let disabled = OSSignposter()

    public var isEnabled: Bool { false }
    public func makeSignpostID() -> OSSignpostID { OSSignpostID(1) }
    public func makeSignpostID(from object: AnyObject) -> OSSignpostID { OSSignpostID(1) }

    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState { .init() }
    public func beginInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage
    )
        -> OSSignpostIntervalState
    { .init() }
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: OSLogMessage) {}
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {}
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) {}
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: OSSignpostID = .exclusive, around task: () throws -> T
    ) rethrows -> T { try task() }
}
