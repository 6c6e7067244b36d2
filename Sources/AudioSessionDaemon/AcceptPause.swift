import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Out of descriptors (or kernel memory), accept(2) fails at once and the listening socket stays
/// readable, so the event loop would spin on it. This pauses accepting for a moment instead:
/// auto-read off (the socket leaves the poll set), then on again after `pause`.
///
/// NIO's `AcceptBackoffHandler` delays the next `read()`, but its server channel keeps the
/// socket registered after a failed accept (the read is still pending), so it does not stop the
/// spin on this version; turning auto-read off does.
final class AcceptPause: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let pause: TimeAmount
    private let logger: Logger
    private let warnings: WarningLimiter
    private var paused = false

    init(pause: TimeAmount = .milliseconds(500), logger: Logger, warnings: WarningLimiter) {
        self.pause = pause
        self.logger = logger
        self.warnings = warnings
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused else { return }
        paused = true
        warnings.warn(logger, "cannot accept a connection; pausing", key: "accept", ["error": "\(error)"])
        let options = context.channel.syncOptions  // on the server channel's loop: set at once
        try? options?.setOption(.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
            self.paused = false
            try? options?.setOption(.autoRead, value: true)
        }
    }
}
