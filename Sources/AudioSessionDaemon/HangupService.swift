import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP asks a daemon to reload its configuration without dropping its connections. The
/// daemon has no configuration file yet, so it says so and goes on; it never dies of a hangup.
public struct HangupService: Service {
    let logger: Logger
    let hangups: UnixSignalsSequence

    /// Traps SIGHUP at once (before the socket listens), so an early hangup cannot kill the daemon.
    public init(logger: Logger) async {
        self.logger = logger
        hangups = await UnixSignalsSequence(trapping: .sighup)
    }

    public func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            logger.notice("SIGHUP: nothing to reload (no configuration file); connections kept")
        }
    }
}

extension UnixSignal {
    /// The catchable signals that stop the daemon gracefully: it stops accepting, closes every
    /// client (they see media services lost and reconnect), removes its socket and logs it.
    /// SIGHUP reloads instead (`HangupService`); SIGPIPE is not used (writes use MSG_NOSIGNAL).
    public static let gracefulStops: [UnixSignal] = [.sigterm, .sigint, .sigquit, .sigusr1, .sigusr2, .sigalrm]
}
