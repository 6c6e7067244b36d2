import Dispatch
import Glibc
import Synchronization

/// Calls a function every 10 ms on a serial queue while running: the clock that moves samples
/// between a player or recorder and its output or input.
///
/// SO2's cost: a thread of its own sleeps until each tick and runs it with `queue.sync` (on that
/// thread: the queue is idle between ticks). A libdispatch timer woke two threads per tick —
/// its manager thread, then a worker for the queue — which cost a player on a sound server more
/// CPU than its samples did (`pulse-bench --player`).
package final class Ticker: @unchecked Sendable {
    package static let interval = DispatchTimeInterval.milliseconds(10)
    package let queue: DispatchQueue
    /// How often it ticks (10 ms; an I/O unit's: its IO buffer duration; a player's on a sound
    /// server: `AudioPlayer`'s). Set while running (on the queue), the next tick is a period away.
    package var period = Ticker.interval {
        didSet { clock.reschedule(period: period.nanoseconds, after: period.nanoseconds) }
    }
    private let clock = TickClock()
    private let label: String

    package init(label: String) {
        self.label = label
        queue = DispatchQueue(label: label, qos: .userInteractive)
    }

    deinit { clock.stop() }

    /// On the queue: the first tick at once, then one every period.
    package func start(_ tick: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let generation = clock.start(period: period.nanoseconds) else { return }
        let (clock, queue) = (self.clock, self.queue)
        startTickThread(name: String(label.split(separator: ".").last ?? "tick").prefix(10) + ".tick") {
            clock.run(generation) { due in
                queue.sync {
                    guard due() else { return }
                    tick()
                }
            }
        }
    }

    /// On the queue, while running: the next tick comes after `delay`, then one every period (a
    /// stream just flushed is filled again without waiting a whole period).
    package func nudge(after delay: DispatchTimeInterval) {
        clock.reschedule(period: period.nanoseconds, after: delay.nanoseconds)
    }

    /// From any thread (a sound server's request, on the client library's thread): the next tick
    /// comes at once, then one every period.
    package func tickSoon() { clock.bringForward() }

    /// On the queue: no tick runs after it returns (one already waiting for the queue sees it stopped).
    package func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        clock.stop()
    }
}

/// When the ticker's thread runs a tick; shared by the ticker and its thread, under a lock.
private final class TickClock: Sendable {
    private struct State {
        /// Which start is current: a thread of an earlier one ends.
        var generation = 0
        var running = false
        var period: UInt64 = 10_000_000
        var next: UInt64 = 0
    }
    private let state = Mutex(State())
    /// Wakes the thread early (a nudge, a new period, a stop).
    private let wake = DispatchSemaphore(value: 0)

    /// The generation of this start, or nil when already running.
    func start(period: UInt64) -> Int? {
        state.withLock { state -> Int? in
            guard !state.running else { return nil }
            state.generation += 1
            (state.running, state.period, state.next) = (true, period, DispatchTime.now().uptimeNanoseconds)
            return state.generation
        }
    }

    func reschedule(period: UInt64, after delay: UInt64) {
        state.withLock { state in
            state.period = period
            state.next = DispatchTime.now().uptimeNanoseconds + delay
        }
        wake.signal()
    }

    func bringForward() {
        state.withLock { state in state.next = min(state.next, DispatchTime.now().uptimeNanoseconds) }
        wake.signal()
    }

    func stop() {
        state.withLock { state in
            state.running = false
            state.generation += 1
        }
        wake.signal()
    }

    /// The thread's loop: sleeps until the next tick is due and runs it through `body`, which
    /// asks `due()` on the queue (still this generation's, and running) before ticking.
    func run(_ generation: Int, _ body: (_ due: () -> Bool) -> Void) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let wait = state.withLock { state -> UInt64?? in
                guard state.running, state.generation == generation else { return .some(nil) }
                guard now >= state.next else { return state.next }
                // Due: the next one a period after this one's time (a late tick does not make
                // the ones after it come in a burst: at most one, at once).
                state.next = max(state.next + state.period, now + state.period / 2)
                return .none
            }
            switch wait {
            case .some(nil): return
            case .some(let deadline?):
                _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: deadline))
                continue
            case .none:
                body { state.withLock { $0.running && $0.generation == generation } }
            }
        }
    }
}

/// Runs `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
private func startTickThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(TickThreadStart(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { argument in
            let start = Unmanaged<TickThreadStart>.fromOpaque(argument!).takeRetainedValue()
            start.nameThisThread()
            start.body()
            return nil
        }, start)
    precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
    pthread_detach(thread)
}

private final class TickThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Shown by `ps -L`, `top -H` and debuggers.
    func nameThisThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds (`.never`: a day).
    var nanoseconds: UInt64 {
        switch self {
        case .seconds(let value): UInt64(max(0, value)) * 1_000_000_000
        case .milliseconds(let value): UInt64(max(0, value)) * 1_000_000
        case .microseconds(let value): UInt64(max(0, value)) * 1_000
        case .nanoseconds(let value): UInt64(max(0, value))
        case .never: 86_400_000_000_000
        @unknown default: 10_000_000
        }
    }
}

/// The wall clock in frames: how many frames of a real-time stream are due since the last take
/// (what the simulated device's outputs consume and its microphone produces).
package struct FrameClock {
    package let sampleRate: Int
    private var last: UInt64?

    package init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Frames due since the previous call (none on the first call after `reset`), at most 200 ms.
    package mutating func take() -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        guard let last else { return 0 }
        let frames = Int((now - last) * UInt64(sampleRate) / 1_000_000_000)
        return min(frames, sampleRate / 5)
    }

    package mutating func reset() { last = nil }
}
