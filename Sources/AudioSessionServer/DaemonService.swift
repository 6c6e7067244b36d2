import Logging
import ServiceLifecycle

/// The daemon as a service of swift-service-lifecycle: listens until a graceful shutdown
/// (SIGTERM, SIGINT), then stops accepting, closes every client and removes its socket.
public struct DaemonService: Service {
    public let socketPath: String
    public let arbiter: Arbiter
    public let logger: Logger

    public init(socketPath: String, arbiter: Arbiter, logger: Logger) {
        self.socketPath = socketPath
        self.arbiter = arbiter
        self.logger = logger
    }

    public func run() async throws {
        let server = try await SocketServer.start(path: socketPath, arbiter: arbiter, logger: logger)
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
