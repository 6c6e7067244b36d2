import AudioSessionRuntime
import Dispatch
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

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
        let trim = Self.returnFreedMemoryPeriodically()
        defer { trim?.cancel() }
        await withGracefulShutdownHandler {
            await server.waitUntilClosed()
        } onGracefulShutdown: {
            Task { await server.stop() }
        }
        await server.stop()
        arbiter.closeAll()
        logger.info("stopped", metadata: ["socket": "\(socketPath)"])
    }

    /// Bursts (a fan-out to a thousand apps, a client reading slowly) leave freed memory in
    /// malloc's arenas, where it would count in the daemon's RSS for good; every 2 s it goes
    /// back to the system, so on a small device the RSS follows the memory in use (found by
    /// the soak command: without it the RSS kept each burst's high-water mark). A queue of its
    /// own, so no event loop waits while the arenas are walked.
    /// glibc's `malloc_trim` is looked up at run time (Glibc's module map leaves malloc.h out;
    /// another C library may not have it, and then nothing is done).
    static let trimInterval = DispatchTimeInterval.seconds(2)

    private static func returnFreedMemoryPeriodically() -> (any DispatchSourceTimer)? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "audiosessiond.trim"))
        timer.schedule(deadline: .now() + trimInterval, repeating: trimInterval)
        timer.setEventHandler { _ = trim(0) }
        timer.resume()
        return timer
    }
}
