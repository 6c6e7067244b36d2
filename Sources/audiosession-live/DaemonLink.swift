import AudioSession
import AudioSessionWire
import Dispatch
import Foundation
import Synchronization

/// The live view's monitor connection to its daemon. When the daemon goes away the page keeps
/// its last state and says since when; the link tries again (every 0.25 s, then up to every 2 s)
/// and, once the daemon is back, subscribes afresh (MS1/MS2, as a monitor).
final class DaemonLink: Sendable {
    enum News: Sendable {
        case observed(sequence: UInt64, time: UInt64, app: AppID, text: String)
        case gone
        case back
    }

    private struct State {
        var controller: SystemController?
        var last: DeviceSnapshot?
        var goneSince: Date?
        var closed = false
    }

    let path: String
    private let state = Mutex(State())
    private let news: AsyncStream<News>.Continuation
    private let retryQueue = DispatchQueue(label: "audiosession-live.reconnect")

    /// Connects now; throws when no daemon answers (the live view then does not start).
    init(path: String, news: AsyncStream<News>.Continuation) throws(SessionError) {
        self.path = path
        self.news = news
        try connect()
    }

    /// The device now; while the daemon is gone, the last one seen and since when it is gone.
    func snapshot() -> (snapshot: DeviceSnapshot?, goneSince: Date?) {
        if let controller = state.withLock({ $0.controller }), let snapshot = try? controller.snapshot() {
            state.withLock { $0.last = snapshot }
            return (snapshot, nil)
        }
        return state.withLock { ($0.last, $0.goneSince ?? Date()) }
    }

    /// Stops trying and ends the connection.
    func close() {
        let controller = state.withLock { state in
            state.closed = true
            defer { state.controller = nil }
            return state.controller
        }
        controller?.close()
    }

    private func connect() throws(SessionError) {
        let news = news
        let controller = try SystemController(
            transport: .daemon(socketPath: path), role: .monitor,
            onEvent: { event in
                if case .observed(let sequence, let time, let app, let notification) = event {
                    news.yield(.observed(sequence: sequence, time: time, app: app, text: "\(notification)"))
                }
            },
            onLost: { [weak self] in self?.lost() })
        try controller.subscribe()
        let last = try controller.snapshot()
        let closed = state.withLock { state in
            guard !state.closed else { return true }
            state.controller = controller
            state.last = last
            state.goneSince = nil
            return false
        }
        if closed { controller.close() }
    }

    private func lost() {
        let closed = state.withLock { state in
            state.controller = nil
            state.goneSince = Date()
            return state.closed
        }
        guard !closed else { return }
        news.yield(.gone)
        retry(after: 0.25)
    }

    private func retry(after delay: Double) {
        retryQueue.asyncAfter(deadline: .now() + delay) { [self] in
            guard !state.withLock({ $0.closed }) else { return }
            do {
                try connect()
                news.yield(.back)
            } catch {
                retry(after: min(delay * 2, 2))
            }
        }
    }
}
