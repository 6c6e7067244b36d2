import Logging
import Synchronization

/// Counts open connections, in all and per uid, against `DaemonLimits` cut to the descriptors
/// the process has (`DescriptorBudget`, T5): the privileged (root, controllers) are admitted
/// while any connection is left; everyone else leaves a reserve, and one uid at most half of
/// the rest.
final class ConnectionGate: Sendable {
    private struct Counts {
        var total = 0
        var byUID: [UInt32: Int] = [:]
    }

    private let shared: SharedLimits
    private let descriptors: DescriptorBudget
    private let counts = Mutex(Counts())

    init(limits: SharedLimits, descriptors: DescriptorBudget) {
        shared = limits
        self.descriptors = descriptors
    }

    /// Admits one more connection of `uid`, or says which limit it would pass.
    func admit(_ uid: UInt32, privileged: Bool) -> String? {
        let budget = descriptors.connections(shared.current)
        return counts.withLock { counts in
            if counts.total >= budget.total {
                return "the daemon has \(budget.total) connections open, its limit"
            }
            let mine = counts.byUID[uid, default: 0]
            if !privileged {
                if counts.total >= budget.total - budget.reservedForPrivileged {
                    return "the daemon has \(counts.total) connections open; the rest are kept for root and controllers"
                }
                if mine >= budget.perUID {
                    return "uid \(uid) has \(budget.perUID) connections open, the limit per uid"
                }
            }
            counts.total += 1
            counts.byUID[uid] = mine + 1
            return nil
        }
    }

    func release(_ uid: UInt32) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byUID[uid, default: 1] - 1
            counts.byUID[uid] = left > 0 ? left : nil
        }
    }
}

/// Lets a warning about a key (a kind of trouble and a uid) through at most once per interval,
/// so a hostile peer cannot flood the log; the count of those held back goes with the next one.
final class WarningLimiter: Sendable {
    private let limits: SharedLimits
    private let last = Mutex<[String: (at: ContinuousClock.Instant, held: Int)]>([:])

    init(limits: SharedLimits) { self.limits = limits }

    /// `nil` to stay quiet, else how many were held back since the last one let through.
    func allow(_ key: String) -> Int? {
        let now = ContinuousClock.now
        let interval = Duration.milliseconds(Int64(limits.current.warningInterval * 1000))
        return last.withLock { last -> Int? in
            if let previous = last[key], now - previous.at < interval {
                last[key] = (previous.at, previous.held + 1)
                return nil
            }
            if last.count > 4096 { last = last.filter { now - $0.value.at < interval } }  // bounded
            let held = last[key]?.held ?? 0
            last[key] = (now, 0)
            return held
        }
    }

    /// Logs the warning unless one with the same key went out within the interval; the count
    /// held back since the last one goes with it.
    func warn(_ logger: Logger, _ message: Logger.Message, key: String, _ metadata: Logger.Metadata) {
        guard let held = allow(key) else { return }
        var metadata = metadata
        if held > 0 { metadata["like-this-since-the-last"] = "\(held)" }
        logger.warning(message, metadata: metadata)
    }
}
