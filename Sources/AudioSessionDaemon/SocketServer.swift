import AudioSessionRuntime
import AudioSessionWire
import Logging
import NIOCore
import NIOPosix

/// The daemon's listening socket: accepts clients and gives each a `ConnectionHandler`.
public final class SocketServer: Sendable {
    public let path: String
    private let channel: any Channel
    /// Whether the socket file is this server's to remove (not when systemd made it).
    private let ownsSocketFile: Bool

    private init(path: String, channel: any Channel, ownsSocketFile: Bool) {
        self.path = path
        self.channel = channel
        self.ownsSocketFile = ownsSocketFile
    }

    /// Binds the Unix socket at `path` (after `SocketPath.prepare`), mode 0600; 0666 when
    /// `shared` (T1's system mode: every user's apps connect, the trust policy judges them).
    /// Connections are admitted within `descriptors` (T5, `ConnectionGate`).
    /// With `inheritedSocket` (systemd socket activation) it serves that listening socket
    /// instead, as systemd made it, and leaves its file alone.
    /// - Throws: `SocketPathError` or NIO's bind error.
    public static func start(
        path: String, arbiter: Arbiter, logger: Logger, limits: SharedLimits = SharedLimits(DaemonLimits()),
        descriptors: DescriptorBudget = .current, shared: Bool = false, inheritedSocket: CInt? = nil,
        activity: @escaping @Sendable () -> Void = {},
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> SocketServer {
        if inheritedSocket == nil { try SocketPath.prepare(path, shared: shared) }
        raisePriority(of: group, logger: logger)
        let outboxes = LoopOutboxes(group: group, logger: logger)
        let gate = ConnectionGate(limits: limits, descriptors: descriptors)
        let warnings = WarningLimiter(limits: limits)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            // Out of descriptors, accepting pauses a moment instead of failing in a busy loop.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPause(logger: logger, warnings: warnings))
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let limits = limits.current  // as of this accept (a reload applies to later ones)
                    // A client that stops reading: its unsent messages may grow to the high mark,
                    // then the connection is closed (LoopOutbox), as if the app had gone.
                    try channel.syncOptions?.setOption(
                        .writeBufferWaterMark, value: .init(low: limits.queuedOutput / 2, high: limits.queuedOutput))
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionHandler(
                            arbiter: arbiter, logger: logger, outbox: outboxes.outbox(for: channel.eventLoop), limits: limits,
                            gate: gate, warnings: warnings, activity: activity))
                }
            }
        let channel: any Channel
        if let inheritedSocket {
            channel = try await bootstrap.withBoundSocket(inheritedSocket).get()
            logger.info("listening on the socket systemd passed", metadata: ["socket": "\(path)"])
        } else {
            // The socket is born with its mode (the umask while binding), so no client ever sees
            // it with another; the chmod after only makes sure.
            let mode: mode_t = shared ? 0o666 : 0o600
            let previous = umask(0o777 & ~mode)
            defer { umask(previous) }
            channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
            chmod(path, mode)
            logger.info("listening", metadata: ["socket": "\(path)"])
        }
        return SocketServer(path: path, channel: channel, ownsSocketFile: inheritedSocket == nil)
    }

    /// The event loops serve every app's control messages, and on a small machine the clients
    /// they wake would otherwise preempt them mid fan-out: each loop thread asks for nice -10
    /// (as a sound server would). Without the privilege the request fails and nothing changes.
    private static func raisePriority(of group: any EventLoopGroup, logger: Logger) {
        for loop in group.makeIterator() {
            loop.execute {
                if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10) != 0 {
                    logger.debug("cannot raise the event loop's priority (needs CAP_SYS_NICE)")
                }
            }
        }
    }

    /// Stops accepting, closes the socket and removes its file. Connected clients are closed
    /// by `Arbiter`'s owner (the daemon) or when the process ends.
    public func stop() async {
        try? await channel.close()
        if ownsSocketFile { unlink(path) }
    }

    /// Waits until the listening socket is closed.
    public func waitUntilClosed() async {
        try? await channel.closeFuture.get()
    }
}
