import AudioSessionRuntime
import Logging
import ServiceLifecycle

/// The daemon as a service of swift-service-lifecycle: listens until a graceful shutdown
/// (`UnixSignal.gracefulStops`), then stops accepting, closes every client and removes its socket.
public struct DaemonService: Service {
    public let socketPath: String
    public let arbiter: Arbiter
    public let logger: Logger
    /// The limits in force; `reload(limits:)` replaces them for connections accepted later.
    public let limits: SharedLimits
    /// The listening socket systemd passed (socket activation), served instead of `socketPath`.
    public let inheritedSocket: CInt?

    public init(
        socketPath: String, arbiter: Arbiter, logger: Logger, limits: DaemonLimits = DaemonLimits(),
        inheritedSocket: CInt? = nil
    ) {
        self.socketPath = socketPath
        self.arbiter = arbiter
        self.logger = logger
        self.limits = SharedLimits(limits)
        self.inheritedSocket = inheritedSocket
    }

    public func run() async throws {
        let trimmer = MemoryTrimmer()
        let server = try await SocketServer.start(
            path: socketPath, arbiter: arbiter, logger: logger, limits: limits,
            shared: arbiter.rules.trust.mode == .system, inheritedSocket: inheritedSocket, activity: trimmer.noteActivity)
        await withGracefulShutdownHandler {
            await server.waitUntilClosed()
        } onGracefulShutdown: {
            Task { await server.stop() }
        }
        await server.stop()
        arbiter.closeAll()
        logger.info("stopped", metadata: ["socket": "\(socketPath)"])
    }
}
