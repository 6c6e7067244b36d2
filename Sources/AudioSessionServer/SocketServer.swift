import AudioSessionWire
import Logging
import NIOCore
import NIOPosix

/// The daemon's listening socket: accepts clients and gives each a `ConnectionHandler`.
public final class SocketServer: Sendable {
    public let path: String
    private let channel: any Channel

    private init(path: String, channel: any Channel) {
        self.path = path
        self.channel = channel
    }

    /// Binds the Unix socket at `path` (after `SocketPath.prepare`), mode 0600.
    /// - Throws: `SocketPathError` or NIO's bind error.
    public static func start(
        path: String, arbiter: Arbiter, logger: Logger,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> SocketServer {
        try SocketPath.prepare(path)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(arbiter: arbiter, logger: logger))
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false)
            .get()
        chmod(path, 0o600)
        logger.info("listening", metadata: ["socket": "\(path)"])
        return SocketServer(path: path, channel: channel)
    }

    /// Stops accepting, closes the socket and removes its file. Connected clients are closed
    /// by `Arbiter`'s owner (the daemon) or when the process ends.
    public func stop() async {
        try? await channel.close()
        unlink(path)
    }

    /// Waits until the listening socket is closed.
    public func waitUntilClosed() async {
        try? await channel.closeFuture.get()
    }
}
