import AudioSessionWire

/// Where the arbiter sends a connection's messages: a socket, or an in-process client.
///
/// `send` is called while the arbiter holds its lock, in the order messages must arrive, so
/// it must only enqueue (never block or call back into the arbiter).
public protocol ConnectionSink: Sendable {
    /// Queues a message for the client.
    func send(_ message: ServerMessage)
    /// Closes the connection after the messages already queued.
    func close()
}
