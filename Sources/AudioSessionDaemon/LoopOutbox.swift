import AudioSessionWire
import Logging
import NIOCore
import Synchronization

/// Writes bound for the channels of one event loop. The arbiter sends to many connections
/// under its lock, from whichever thread handles a request; here each message only queues (no
/// encoding, no write, no flush under the arbiter's lock), and one task on the loop encodes them
/// all, writes them in the order they were sent and flushes each channel once. A request's reply
/// is queued after the events it caused, on the same loop, so its connection gets them first.
///
/// A client that stops reading (a slow consumer) must not stall the daemon or hold its memory:
/// once a connection has more than `DaemonLimits.queuedOutput` bytes waiting (its write buffer's
/// high mark), it is closed instead of written to, and the arbiter treats the app as departed.
final class LoopOutbox: Sendable {
    let eventLoop: any EventLoop
    private let logger: Logger
    private let queue = Mutex<[(channel: any Channel, message: ServerMessage)]>([])

    init(eventLoop: any EventLoop, logger: Logger) {
        self.eventLoop = eventLoop
        self.logger = logger
    }

    func send(_ message: ServerMessage, to channel: any Channel) {
        let first = queue.withLock { queue -> Bool in
            queue.append((channel, message))
            return queue.count == 1
        }
        if first { eventLoop.execute { self.drain() } }
    }

    /// Encodes and writes everything queued, then flushes each channel once (a task of its own:
    /// no lock held, so a flush that reads the socket may enter the arbiter). The channel of the
    /// last message goes first — a request's reply is queued after the events it caused, so the
    /// client waiting on it is not kept waiting behind a fan-out to a thousand others; each
    /// channel's own messages stay in the order they were sent.
    private func drain() {
        let items = queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        guard let last = items.last.map({ ObjectIdentifier($0.channel) }) else { return }
        var frames = NotificationFrames()  // a fan-out's notification is encoded once
        for item in items where ObjectIdentifier(item.channel) == last {
            write(ByteBuffer.frame(payload: frames.payload(item.message)), to: item.channel)
        }
        items.last?.channel.flush()
        var flushed: Set<ObjectIdentifier> = [last]
        for item in items where ObjectIdentifier(item.channel) != last {
            write(ByteBuffer.frame(payload: frames.payload(item.message)), to: item.channel)
        }
        for item in items.reversed() where flushed.insert(ObjectIdentifier(item.channel)).inserted { item.channel.flush() }
    }
}

extension LoopOutbox {
    /// Writes unless the connection already holds more than the limit unsent (it is then closed).
    private func write(_ buffer: ByteBuffer, to channel: any Channel) {
        guard channel.isWritable else {
            if channel.isActive {
                logger.info("closed a connection that stopped reading (more unsent than limits.queued-output)")
            }
            channel.close(promise: nil)
            return
        }
        channel.write(buffer, promise: nil)
    }
}

/// One outbox per loop of a group.
struct LoopOutboxes: Sendable {
    private let outboxes: [LoopOutbox]

    private let logger: Logger

    init(group: any EventLoopGroup, logger: Logger) {
        self.logger = logger
        outboxes = group.makeIterator().map { LoopOutbox(eventLoop: $0, logger: logger) }
    }

    func outbox(for loop: any EventLoop) -> LoopOutbox {
        outboxes.first { $0.eventLoop === loop } ?? LoopOutbox(eventLoop: loop, logger: logger)
    }
}
