import NIOCore
import Synchronization

/// Writes bound for the channels of one event loop. The arbiter sends to many connections
/// from whichever thread handles a request; writing to another loop's channel one by one
/// would wake that loop once per message. Here messages queue per loop and one task writes
/// them all and flushes each channel once, in the order they were sent.
///
/// A send made on the loop itself drains the queue first and writes at once, so a request's
/// events and its reply keep their order on its own connection.
///
/// A client that stops reading (a slow consumer) must not stall the daemon or hold its memory:
/// once a connection has more than `slowConsumerLimit` bytes waiting, it is closed instead of
/// written to, and the arbiter treats the app as departed.
final class LoopOutbox: Sendable {
    /// The unsent bytes a connection may have before it is closed: 1 MiB.
    static let slowConsumerLimit = 1 << 20

    let eventLoop: any EventLoop
    private let queue = Mutex<[(channel: any Channel, buffer: ByteBuffer)]>([])

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func send(_ buffer: ByteBuffer, to channel: any Channel) {
        if eventLoop.inEventLoop {
            drain()
            write(buffer, to: channel)
            channel.flush()
            return
        }
        let first = queue.withLock { queue -> Bool in
            queue.append((channel, buffer))
            return queue.count == 1
        }
        if first { eventLoop.execute { self.drain() } }
    }

    /// Writes everything queued, then flushes each channel once.
    private func drain() {
        let items = queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        guard !items.isEmpty else { return }
        var flushed = Set<ObjectIdentifier>()
        for item in items { write(item.buffer, to: item.channel) }
        for item in items.reversed() where flushed.insert(ObjectIdentifier(item.channel)).inserted {
            item.channel.flush()
        }
    }
}

extension LoopOutbox {
    /// Writes unless the connection already holds more than the limit unsent (it is then closed).
    private func write(_ buffer: ByteBuffer, to channel: any Channel) {
        guard channel.isWritable else {
            channel.close(promise: nil)
            return
        }
        channel.write(buffer, promise: nil)
    }
}

/// One outbox per loop of a group.
struct LoopOutboxes: Sendable {
    private let outboxes: [LoopOutbox]

    init(group: any EventLoopGroup) {
        outboxes = group.makeIterator().map { LoopOutbox(eventLoop: $0) }
    }

    func outbox(for loop: any EventLoop) -> LoopOutbox {
        outboxes.first { $0.eventLoop === loop } ?? LoopOutbox(eventLoop: loop)
    }
}
