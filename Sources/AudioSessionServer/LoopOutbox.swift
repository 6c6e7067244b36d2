import NIOCore
import Synchronization

/// Writes bound for the channels of one event loop. The arbiter sends to many connections
/// from whichever thread handles a request; writing to another loop's channel one by one
/// would wake that loop once per message. Here messages queue per loop and one task writes
/// them all and flushes each channel once, in the order they were sent.
///
/// A send made on the loop itself drains the queue first and writes at once, so a request's
/// events and its reply keep their order on its own connection.
final class LoopOutbox: Sendable {
    let eventLoop: any EventLoop
    private let queue = Mutex<[(channel: any Channel, buffer: ByteBuffer)]>([])

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func send(_ buffer: ByteBuffer, to channel: any Channel) {
        if eventLoop.inEventLoop {
            drain()
            channel.writeAndFlush(buffer, promise: nil)
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
        for item in items { item.channel.write(item.buffer, promise: nil) }
        for item in items.reversed() where flushed.insert(ObjectIdentifier(item.channel)).inserted {
            item.channel.flush()
        }
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
