import Logging

/// The kinds of log entries (`os_log`'s `type:`, `Logger.log(level:_:)`).
public struct OSLogType: Equatable, Hashable, Sendable {
    let level: Logging.Logger.Level
    public static let `default` = OSLogType(level: .notice)
    public static let info = OSLogType(level: .info)
    public static let debug = OSLogType(level: .debug)
    public static let error = OSLogType(level: .error)
    public static let fault = OSLogType(level: .critical)
}

/// A log handle: a subsystem and a category (`OSLog(subsystem:category:)`, `OSLog.default`).
public final class OSLog: Sendable {
    public let subsystem: String
    public let category: String
    let logger: Logging.Logger

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        var logger = Logging.Logger(label: subsystem.isEmpty ? category : "\(subsystem).\(category)")
        logger[metadataKey: "category"] = .string(category)
        self.logger = logger
    }

    public static let `default` = OSLog(subsystem: "", category: "default")
    /// Logs nothing.
    public static let disabled = OSLog(subsystem: "", category: "disabled", disabled: ())

    private init(subsystem: String, category: String, disabled: Void) {
        self.subsystem = subsystem
        self.category = category
        logger = Logging.Logger(label: "disabled") { _ in SwiftLogNoOpLogHandler() }
    }

    /// A handle writing to a given swift-log handler (tests, or a program that wants one log
    /// apart from `LoggingSystem`'s).
    package init(subsystem: String, category: String, handler: any LogHandler) {
        self.subsystem = subsystem
        self.category = category
        var logger = Logging.Logger(label: "\(subsystem).\(category)") { _ in handler }
        logger[metadataKey: "category"] = .string(category)
        self.logger = logger
    }

    /// Whether entries of this type are written (what the swift-log handler lets through).
    public func isEnabled(type: OSLogType) -> Bool { logger.logLevel <= type.level }
}

/// Apple's `Logger` (iOS 14): each entry goes to swift-log under the label
/// `SUBSYSTEM.CATEGORY`, at the matching level. `LoggingSystem.bootstrap` chooses where entries
/// go (standard error by default). Named `os.Logger` where swift-log's `Logger` is imported too.
public struct Logger: Sendable {
    let log: OSLog

    public init(subsystem: String, category: String) { log = OSLog(subsystem: subsystem, category: category) }
    public init(_ log: OSLog) { self.log = log }
    public init() { log = .default }

    public func log(_ message: OSLogMessage) { write(.default, message) }
    public func log(level: OSLogType, _ message: OSLogMessage) { write(level, message) }
    public func trace(_ message: OSLogMessage) { write(OSLogType(level: .trace), message) }
    public func debug(_ message: OSLogMessage) { write(.debug, message) }
    public func info(_ message: OSLogMessage) { write(.info, message) }
    public func notice(_ message: OSLogMessage) { write(.default, message) }
    public func warning(_ message: OSLogMessage) { write(OSLogType(level: .warning), message) }
    public func error(_ message: OSLogMessage) { write(.error, message) }
    public func critical(_ message: OSLogMessage) { write(.fault, message) }
    public func fault(_ message: OSLogMessage) { write(.fault, message) }

    func write(_ type: OSLogType, _ message: OSLogMessage) {
        log.logger.log(level: type.level, "\(message.text)")
    }
}

/// `os_log("format %{public}@ %d", log: log, type: .info, args...)`: the C-style format with its
/// arguments (`%@`, `%d`, `%s`, `%f`… and their `{public}`/`{private}` privacy), as Apple writes it.
public func os_log(
    _ message: StaticString, dso: UnsafeRawPointer? = nil, log: OSLog = .default, type: OSLogType = .default,
    _ args: any CVarArg...
) {
    log.logger.log(level: type.level, "\(OSLogFormat.render(message.description, args))")
}

public func os_log(
    _ type: OSLogType, dso: UnsafeRawPointer? = nil, log: OSLog = .default, _ message: StaticString, _ args: any CVarArg...
) {
    log.logger.log(level: type.level, "\(OSLogFormat.render(message.description, args))")
}

/// `os_log(.info, log: log, "\(value)")` with an interpolated message (iOS 14's form).
public func os_log(_ type: OSLogType = .default, log: OSLog = .default, _ message: OSLogMessage) {
    log.logger.log(level: type.level, "\(message.text)")
}
