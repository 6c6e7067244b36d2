#if canImport(Glibc)
import Glibc
#endif

/// T5: how the daemon's file descriptors are shared, so that one user's connections cannot take
/// them all (docs/trust-and-limits.md "Descriptors"). At start the daemon raises its soft
/// `RLIMIT_NOFILE` to the hard limit (`raiseSoftLimit()`); the configured connection limits are
/// then cut to what the descriptors allow, a reserve is kept for the privileged (root and the
/// peers the trust policy lets control: they are admitted while any connection is left), and no
/// one uid may hold more than half of what is left to everyone else.
public struct DescriptorBudget: Sendable, Equatable {
    /// The descriptors the process may have open (its soft `RLIMIT_NOFILE`).
    public var limit: Int
    /// Descriptors the daemon keeps for itself: the listening socket, the event loops' epoll,
    /// eventfd and timerfd, the sound server's connection, the state and configuration files.
    public static let ownUse = 64

    public init(limit: Int) { self.limit = limit }

    /// The process's soft limit now.
    public static var current: DescriptorBudget {
        var value = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &value) == 0 else { return DescriptorBudget(limit: 1024) }
        return DescriptorBudget(limit: Self.count(value.rlim_cur))
    }

    /// The process's hard limit: what `raiseSoftLimit()` raises to.
    public static var hard: DescriptorBudget {
        var value = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &value) == 0 else { return current }
        return DescriptorBudget(limit: Self.count(value.rlim_max))
    }

    private static func count(_ limit: rlim_t) -> Int {
        limit == rlim_t.max ? Int(Int32.max) : Int(clamping: limit)  // RLIM_INFINITY
    }

    /// Raises the soft descriptor limit to the hard one (systemd's default soft limit is 1,024
    /// whatever the hard one is). Returns the limit before and after; an error leaves it as it was.
    @discardableResult
    public static func raiseSoftLimit() -> (before: Int, after: Int) {
        let before = current.limit
        var value = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &value) == 0, value.rlim_cur < value.rlim_max else {
            return (before, before)
        }
        value.rlim_cur = value.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &value)
        return (before, current.limit)
    }

    /// The connection limits in force with these descriptors: the configured ones, cut to fit.
    public func connections(_ limits: DaemonLimits) -> ConnectionBudget {
        let total = max(1, min(limits.connections, limit - Self.ownUse))
        let reserved = min(total - 1, max(8, total / 16))
        let shared = total - reserved
        let perUID = max(1, min(limits.connectionsPerUID, shared / 2))
        return ConnectionBudget(total: total, reservedForPrivileged: reserved, perUID: perUID)
    }
}

/// How many connections may be open at once (`DescriptorBudget.connections(_:)`).
public struct ConnectionBudget: Sendable, Equatable, CustomStringConvertible {
    /// In all; the privileged are admitted up to this.
    public var total: Int
    /// Of `total`, kept for root and controllers: everyone else stops at `total - reservedForPrivileged`.
    public var reservedForPrivileged: Int
    /// One uid that is not privileged.
    public var perUID: Int

    public init(total: Int, reservedForPrivileged: Int, perUID: Int) {
        self.total = total
        self.reservedForPrivileged = reservedForPrivileged
        self.perUID = perUID
    }

    public var description: String {
        "connections \(total) in all, \(perUID) per uid, \(reservedForPrivileged) kept for root and controllers"
    }
}
