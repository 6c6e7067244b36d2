import AudioSessionModel
import AudioSessionWire
import Foundation

/// The events seen so far (the last 500) and the pages listening for the next ones. What a page
/// receives is ready to write: `data: EVENT` for a notification, `event: daemon` when the daemon
/// goes away or comes back, `event: stopped` as the last thing before the live view exits.
/// A page reads the history first and then subscribes; `subscribe(after:)` replays what came in
/// between, so no event is lost in that gap (CI once saw a call's interruption missed so).
actor EventFeed {
    private var history: [(sequence: UInt64, line: String)] = []
    private var listeners: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextListener = 0
    private var stopped = false

    static let stoppedMessage = "event: stopped\ndata: the live view stopped\n\n"
    /// What a stream begins with: the delay a browser would wait before connecting again is an
    /// hour (a page whose stream ended because the live view stopped does not hammer it).
    static let openingMessage = "retry: 3600000\n: connected\n\n"

    func add(sequence: UInt64, time: UInt64, app: AppID, text: String) {
        let received = UInt64(Date().timeIntervalSince1970 * 1000)
        let event: [String: Any] = [
            "sequence": sequence, "time": time / 1_000_000, "received": received, "app": app.rawValue, "text": text,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else { return }
        let line = String(decoding: data, as: UTF8.self)
        history.append((sequence, line))
        if history.count > 500 { history.removeFirst(history.count - 500) }
        for listener in listeners.values { listener.yield("data: \(line)\n\n") }
    }

    /// The daemon went away (`gone`) or came back (`back`): said to every page, not kept.
    func daemon(_ news: String) {
        for listener in listeners.values { listener.yield("event: daemon\ndata: \(news)\n\n") }
    }

    func historyJSON() -> String { "[" + history.map(\.line).joined(separator: ",") + "]" }

    /// A page's stream, starting (after its opening) with the kept events after sequence `after` (none when nil);
    /// once the live view stops, one that says so and ends.
    func subscribe(after: UInt64? = nil) -> (AsyncStream<String>, Int) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        nextListener += 1
        continuation.yield(Self.openingMessage)
        if let after {
            for event in history where event.sequence > after { continuation.yield("data: \(event.line)\n\n") }
        }
        if stopped {
            continuation.yield(Self.stoppedMessage)
            continuation.finish()
        } else {
            listeners[nextListener] = continuation
        }
        return (stream, nextListener)
    }

    func unsubscribe(_ id: Int) { listeners[id] = nil }

    /// Ends one page's stream.
    func end(_ id: Int) { listeners.removeValue(forKey: id)?.finish() }

    /// Tells every page the live view stopped and ends their streams, so the server has no
    /// response left to wait for. Returns how many were open.
    @discardableResult
    func stopAll() -> Int {
        stopped = true
        let open = listeners.values
        listeners = [:]
        for listener in open {
            listener.yield(Self.stoppedMessage)
            listener.finish()
        }
        return open.count
    }
}
