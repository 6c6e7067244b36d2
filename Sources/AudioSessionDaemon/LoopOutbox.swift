import Logging
import NIOCore
import Synchronization

/// Writes bound for the channels of one event loop. The arbiter sends to many connections
/// from whichever thread handles a request; writing to another loop's channel one by one
/// would wake that loop once per message. Here messages queue per loop and one task writes
/// them all and flushes each channel once, in the order they were sent.
///
/// A send made on the loop itself drains the queue first and writes at once, so a request's
/// events and its reply keep their order on its own connection. It does not flush: sends come
/// under the arbiter's lock, and a flush can read the socket and hand a request to the arbiter
/// again (found by the soak). The flush is a task of its own, after the current one.
///
/// A client that stops reading (a slow consumer) must not stall the daemon or hold its memory:
/// once a connection has more than `slowConsumerLimit` bytes waiting, it is closed instead of
/// written to, and the arbiter treats the app as departed.
final class LoopOutbox: Sendable {
    /// The unsent bytes a connection may have before it is closed: 1 MiB.
    static let slowConsumerLimit = 1 << 20

    let eventLoop: any EventLoop
    private let logger: Logger
    private let queue = Mutex<[(channel: any Channel, buffer: ByteBuffer)]>([])
    /// Channels written on the loop and not yet flushed.
    private let unflushed = Mutex<[any Channel]>([])

    init(eventLoop: any EventLoop, logger: Logger) {
        self.eventLoop = eventLoop
        self.logger = logger
    }

    func send(_ buffer: ByteBuffer, to channel: any Channel) {
        if eventLoop.inEventLoop {
            let queued = takeQueue()
            for item in queued { write(item.buffer, to: item.channel) }
            write(buffer, to: channel)
            let first = unflushed.withLock { unflushed -> Bool in
                unflushed.append(contentsOf: queued.map(\.channel))
                unflushed.append(channel)
                return unflushed.count == queued.count + 1
            }
            if first { eventLoop.execute { self.flushWritten() } }
            return
        }
        let first = queue.withLock { queue -> Bool in
            queue.append((channel, buffer))
            return queue.count == 1
        }
        if first { eventLoop.execute { self.drain() } }
    }

    private func takeQueue() -> [(channel: any Channel, buffer: ByteBuffer)] {
        queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }

    /// Writes everything queued, then flushes each channel once (a task of its own: no lock held).
    private func drain() {
        let items = takeQueue()
        for item in items { write(item.buffer, to: item.channel) }
        Self.flushOnce(items.map(\.channel))
    }

    private func flushWritten() {
        Self.flushOnce(
            unflushed.withLock { unflushed in
                defer { unflushed.removeAll(keepingCapacity: true) }
                return unflushed
            })
    }

    private static func flushOnce(_ channels: [any Channel]) {
        var flushed = Set<ObjectIdentifier>()
        for channel in channels.reversed() where flushed.insert(ObjectIdentifier(channel)).inserted { channel.flush() }
    }
}

extension LoopOutbox {
    /// Writes unless the connection already holds more than the limit unsent (it is then closed).
    private func write(_ buffer: ByteBuffer, to channel: any Channel) {
        guard channel.isWritable else {
            if channel.isActive {
                logger.info("closed a connection that stopped reading (more than 1 MiB unsent)")
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
