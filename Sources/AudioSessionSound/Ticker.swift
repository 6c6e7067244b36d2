import Dispatch

/// Calls a function every 10 ms on a serial queue while running: the clock that moves samples
/// between a player or recorder and its output or input.
package final class Ticker: @unchecked Sendable {
    package static let interval = DispatchTimeInterval.milliseconds(10)
    package let queue: DispatchQueue
    /// How often it ticks (10 ms; an I/O unit's: its IO buffer duration; a player's on a sound
    /// server: `AudioPlayer`'s). Set while running (on the queue), the next tick is a period away.
    package var period = Ticker.interval {
        didSet { timer?.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(2)) }
    }
    private var timer: (any DispatchSourceTimer)?

    package init(label: String) { queue = DispatchQueue(label: label, qos: .userInteractive) }

    /// On the queue.
    package func start(_ tick: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: period, leeway: .milliseconds(2))
        timer.setEventHandler(handler: tick)
        timer.resume()
        self.timer = timer
    }

    /// On the queue, while running: the next tick comes after `delay`, then one every period (a
    /// stream just flushed is filled again without waiting a whole period).
    package func nudge(after delay: DispatchTimeInterval) {
        timer?.schedule(deadline: .now() + delay, repeating: period, leeway: .milliseconds(1))
    }

    /// On the queue.
    package func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
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
