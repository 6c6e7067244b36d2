import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP asks the daemon to reload its configuration without dropping its connections
/// (`reload`); it never dies of a hangup.
public struct HangupService: Service {
    let logger: Logger
    let hangups: UnixSignalsSequence
    let reload: @Sendable () -> Void

    /// Traps SIGHUP at once (before the socket listens), so an early hangup cannot kill the daemon.
    public init(logger: Logger, reload: @escaping @Sendable () -> Void) async {
        self.logger = logger
        self.reload = reload
        hangups = await UnixSignalsSequence(trapping: .sighup)
    }

    public func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            logger.info("SIGHUP: reloading the configuration")
            reload()
        }
    }
}

extension UnixSignal {
    /// The catchable signals that stop the daemon gracefully: it stops accepting, closes every
    /// client (they see media services lost and reconnect), removes its socket and logs it.
    /// SIGHUP reloads instead (`HangupService`); SIGPIPE is not used (writes use MSG_NOSIGNAL).
    public static let gracefulStops: [UnixSignal] = [.sigterm, .sigint, .sigquit, .sigusr1, .sigusr2, .sigalrm]
}
