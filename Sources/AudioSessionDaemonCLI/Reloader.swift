import AudioSessionConfiguration
import AudioSessionDaemon
import Logging
import Synchronization

/// SIGHUP: reads the configuration file again and applies what can change while running (log
/// level, permission prompts, limits, trust, the device policy: §17, for streams and players
/// that appear afterwards) without dropping a connection. A file with a
/// problem changes nothing (the error is logged); keys that need a restart are named.
final class Reloader: Sendable {
    private let daemon: Daemon
    private let settings: Mutex<DaemonSettings>
    private let service: DaemonService
    private let level: SharedLogLevel
    private let logger: Logger

    init(daemon: Daemon, settings: DaemonSettings, service: DaemonService, level: SharedLogLevel, logger: Logger) {
        self.daemon = daemon
        self.settings = Mutex(settings)
        self.service = service
        self.level = level
        self.logger = logger
    }

    func reload() {
        guard let file = daemon.configFile else {
            logger.notice("SIGHUP: nothing to reload (started without --config); connections kept")
            return
        }
        let new: DaemonSettings
        do {
            var read = try ConfigurationFile.read(file)
            try daemon.override(&read)
            new = read
        } catch {
            logger.error("SIGHUP: the configuration was not reloaded; nothing changed", metadata: ["error": "\(error)"])
            return
        }
        let old = settings.withLock { $0 }
        let restartOnly = old.restartOnlyChanges(to: new)
        if !restartOnly.isEmpty {
            logger.warning(
                "SIGHUP: these keys take effect on the next start only",
                metadata: ["keys": "\(restartOnly.joined(separator: ", "))", "config": "\(file)"])
        }
        var applied = old
        applied.logLevel = new.logLevel
        applied.permissionPrompt = new.permissionPrompt
        applied.permissionFallback = new.permissionFallback
        applied.permissionTimeout = new.permissionTimeout
        applied.limits = new.limits
        applied.trust = new.trust
        applied.manifestDirectory = new.manifestDirectory
        applied.policy = new.policy
        level.current = applied.logLevel
        service.limits.replace(with: applied.limits)
        service.arbiter.reload(applied.rules)
        settings.withLock { $0 = applied }
        logger.notice(
            "SIGHUP: configuration reloaded; connections kept",
            metadata: [
                "config": "\(file)", "changed": "\(old.reloadedChanges(to: applied).joined(separator: ", "))",
                "trust": "\(applied.trust.mode)", "manifests": "\(applied.trust.manifests.count)",
            ])
    }
}
