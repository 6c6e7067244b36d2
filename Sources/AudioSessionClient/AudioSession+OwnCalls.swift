import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// N3: the notifications an app's own call causes (the route change of its own `setActive(true)`,
/// of its own `setCategory` while active) are posted after the call returns — so that an observer
/// added right after the call hears them, through a daemon as embedded. While a call is under way
/// the event queue holds what arrives (`suspend`); when the call returns it lets it go — for a
/// call made on the main thread, on the main queue, after the job that made the call (the code
/// right after it, which adds the observer); if the main queue is not being served (a program
/// that never runs it), after `mainQueueWait` at most. Only what the call caused waits: the daemon
/// sends a request's events before its reply (and embedded they are handed over before the call
/// returns), so any event that arrives once the call has returned is someone else's doing (an
/// interruption by another app, a plug) and is delivered at once — after the held ones, which it
/// lets go first (N2's order), whether or not the process ever serves its main queue (issue 60:
/// a players bridge, a C program in its own loop, heard every later event up to 100 ms late).
extension AudioSession {
    /// How long the held notifications of a main-thread call wait for the main queue, at most.
    static let mainQueueWait = DispatchTimeInterval.milliseconds(100)

    /// One held stretch of the event queue: let go once, by whichever comes first.
    final class EventGate: Sendable {
        private let queue: DispatchQueue
        private let open = Atomic<Bool>(false)
        /// Whether the call it holds for has returned: from then on it only waits for the main queue.
        let returned = Atomic<Bool>(false)
        init(_ queue: DispatchQueue) {
            self.queue = queue
            queue.suspend()
        }
        func release() {
            guard !open.exchange(true, ordering: .acquiringAndReleasing) else { return }
            queue.resume()
        }
    }

    /// Runs an app call with the event queue held until it returns (N3).
    func holdingEvents<T>(_ body: () throws(SessionError) -> T) throws(SessionError) -> T {
        let gate = EventGate(eventQueue)
        let id = state.withLock { state -> UInt64 in
            state.nextGate += 1
            state.gates[state.nextGate] = gate
            return state.nextGate
        }
        defer {
            gate.returned.store(true, ordering: .releasing)
            let release: @Sendable () -> Void = { [weak self] in
                gate.release()
                _ = self?.state.withLock { $0.gates.removeValue(forKey: id) }
            }
            if Self.isOnMainQueue || Self.isMainThread {
                DispatchQueue.main.async(execute: release)
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.mainQueueWait, execute: release)
            } else {
                release()
            }
        }
        return try body()
    }

    /// Lets every held stretch go now (`waitForPendingNotifications`: the caller asks for them).
    func releaseHeldEvents() {
        let gates = state.withLock { state in
            defer { state.gates.removeAll() }
            return Array(state.gates.values)
        }
        for gate in gates { gate.release() }
    }

    /// Lets go the stretches of calls that have returned: an event arriving now was not caused
    /// by them, and waits for nobody's main queue. A call still under way keeps holding.
    func releaseReturnedCalls() {
        let gates = state.withLock { state -> [EventGate] in
            guard !state.gates.isEmpty else { return [] }
            let done = state.gates.filter { $0.value.returned.load(ordering: .acquiring) }
            for id in done.keys { state.gates.removeValue(forKey: id) }
            return done.sorted { $0.key < $1.key }.map(\.value)
        }
        for gate in gates { gate.release() }
    }

    /// Whether the caller runs on the main queue (main-actor code: with `dispatchMain`, as Swift's
    /// async main runs on Linux, the main queue's jobs may run on another thread than the first).
    static var isOnMainQueue: Bool {
        _ = mainQueueMarked
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let mainQueueMarked: Bool = {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        return true
    }()

    /// The process's main thread: its thread id is the process id (`/proc/thread-self` names
    /// `PID/task/TID`; the Glibc module offers neither gettid nor SYS_gettid).
    static var isMainThread: Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { pid_t($0) } == getpid()
    }
}
