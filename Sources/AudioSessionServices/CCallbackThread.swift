import AudioSessionSound
import Dispatch

/// The thread the library calls an app back on — an audio queue's, an I/O unit's (SO4, SO5), the
/// system sounds' completions (SO6) — with the ticker that drives it. Everything the object holds
/// is this thread's. A call the app makes from inside one of its callbacks (a buffer enqueued
/// again, AudioUnitRender, a sound disposed in its completion) runs in place, since the callback
/// is already on the thread; any other call waits its turn.
final class CallbackThread: @unchecked Sendable {
    let ticker: Ticker
    private let current = DispatchSpecificKey<Bool>()

    init(label: String) {
        ticker = Ticker(label: label)
        ticker.queue.setSpecific(key: current, value: true)
    }

    /// Whether the caller is on this thread (inside a callback or a tick).
    var isCurrent: Bool { DispatchQueue.getSpecific(key: current) == true }

    /// Runs `body` on the thread: in place from a callback, else waiting its turn.
    func sync<T>(_ body: () throws(CStatus) -> T) throws(CStatus) -> T {
        if isCurrent { return try body() }
        return try ticker.queue.sync { () -> Result<T, CStatus> in
            do throws(CStatus) { return .success(try body()) } catch { return .failure(error) }
        }.get()
    }

    /// `sync` for a body that cannot fail.
    func sync<T>(_ body: () -> T) -> T {
        if isCurrent { return body() }
        return ticker.queue.sync(execute: body)
    }

    /// Runs `body` on the thread later (never in place).
    func async(_ body: @escaping @Sendable () -> Void) { ticker.queue.async(execute: body) }
}
