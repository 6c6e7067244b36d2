import Logging
import Synchronization

/// A log level every copy of a logger shares, so a reload (SIGHUP) changes what the whole
/// daemon logs: `Logger`s are values, and each part of the daemon holds its own copy.
public final class SharedLogLevel: Sendable {
    private let level: Mutex<Logger.Level>

    public init(_ level: Logger.Level) { self.level = Mutex(level) }

    public var current: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    /// A logger to standard error whose level is this one.
    public func logger(label: String) -> Logger {
        Logger(label: label) { label in Handler(inner: StreamLogHandler.standardError(label: label), level: self) }
    }

    private struct Handler: LogHandler {
        var inner: StreamLogHandler
        let level: SharedLogLevel

        var logLevel: Logger.Level {
            get { level.current }
            set { level.current = newValue }
        }

        var metadata: Logger.Metadata {
            get { inner.metadata }
            set { inner.metadata = newValue }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { inner[metadataKey: key] }
            set { inner[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) { inner.log(event: event) }
    }
}
