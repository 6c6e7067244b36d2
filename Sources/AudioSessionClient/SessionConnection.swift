import AudioSessionRuntime
import AudioSessionWire

/// One client connection to the arbiter, in this process or over the daemon's socket.
/// Requests are synchronous (the AVAudioSession API is); events arrive on the connection's
/// own thread and must only be enqueued by the receiver.
public protocol SessionConnection: Sendable {
    /// Sends a request and waits for its reply.
    /// - Throws: `SessionError` `msrv` when the connection is lost (MS1).
    func request(_ request: Request) throws(SessionError) -> Reply
    /// Returns after every event sent to this connection before the call has been handed
    /// to the event handler (a delivery barrier).
    func flush() throws(SessionError)
    /// Ends the connection; the daemon treats the app as departed.
    func close()
}

/// Handlers a connection calls: each event in order, and once when the connection ends
/// without `close()` having been called.
public struct ConnectionHandlers: Sendable {
    /// Called with each event, in order, on the connection's own thread.
    public var event: @Sendable (ServerEvent) -> Void
    /// Called once when the connection ends without `close()`.
    public var lost: @Sendable () -> Void

    public init(event: @escaping @Sendable (ServerEvent) -> Void, lost: @escaping @Sendable () -> Void = {}) {
        self.event = event
        self.lost = lost
    }
}

/// A connection to an arbiter in this process: requests are direct calls.
final class InProcessConnection: SessionConnection {
    private let arbiter: Arbiter
    private let id: Arbiter.ConnectionID

    init(arbiter: Arbiter, hello: Hello, handlers: ConnectionHandlers) throws(SessionError) {
        self.arbiter = arbiter
        switch arbiter.connect(hello, peer: .thisProcess, sink: HandlerSink(handlers: handlers)) {
        case .success(let id): self.id = id
        case .failure(let error): throw error
        }
    }

    func request(_ request: Request) throws(SessionError) -> Reply { arbiter.handle(request, from: id) }
    func flush() throws(SessionError) {}  // events are handed over before a request returns
    func close() { arbiter.disconnect(id) }

    private struct HandlerSink: ConnectionSink {
        let handlers: ConnectionHandlers
        func send(_ message: ServerMessage) {
            if case .event(let event) = message { handlers.event(event) }
        }
        func close() { handlers.lost() }
    }
}
