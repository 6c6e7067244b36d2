import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import Logging

/// Everything `audiosessiond` can be told: defaults, then its configuration file
/// (`ConfigurationFile`), then its command-line options. `docs/configuration.md` lists every key.
public struct DaemonSettings: Sendable, Equatable {
    /// Where the ports come from.
    public enum Backend: String, Sendable, CaseIterable {
        case simulated, pulse
    }

    public var socket: String?
    public var backend: Backend = .simulated
    public var pulseServer: String?
    /// The device profile; `nil`: iphone, or desktop with the pulse backend.
    public var device: DeviceProfile?
    public var duckLevel = 0.2
    public var stateDir: String?
    public var permissionPrompt: PermissionPolicy = .ask
    /// P4: the answer when no system controller can be asked; nil: the profile's (desktop
    /// granted — no Linux desktop asks, and a ported recorder must not hang; other profiles denied).
    public var permissionFallback: Bool?
    /// P4: seconds the notification's question waits for the user before the fallback answers.
    public var permissionTimeout = 60.0
    public var logLevel: Logger.Level = .info
    public var limits = DaemonLimits()
    /// T1, with the manifests read and the names of users and groups resolved.
    public var trust = TrustPolicy.user
    /// Where the manifests were read (`trust.manifests`).
    public var manifestDirectory: String?
    /// §17: what streams and players that declare nothing intend (`policy:`).
    public var policy = DevicePolicy()

    public init() {}

    /// The profile the daemon runs.
    public var profile: DeviceProfile { device ?? (backend == .pulse ? .desktop : .iphone) }

    /// What the arbiter may change while running.
    public var rules: Arbiter.Rules {
        Arbiter.Rules(
            trust: trust, permissionPolicy: permissionPrompt, policy: policy, permissionFallback: fallbackAnswer,
            permissionTimeout: .milliseconds(Int64((permissionTimeout * 1000).rounded())))
    }

    /// P4: the fallback answer in force (the profile's when the file and options say none).
    public var fallbackAnswer: Bool { permissionFallback ?? (profile == .desktop) }

    /// The keys whose change a reload cannot apply (they take effect on the next start).
    public func restartOnlyChanges(to new: DaemonSettings) -> [String] {
        var keys: [String] = []
        if socket != new.socket { keys.append("socket") }
        if backend != new.backend { keys.append("backend") }
        if pulseServer != new.pulseServer { keys.append("pulse-server") }
        if profile != new.profile { keys.append("device") }
        if duckLevel != new.duckLevel { keys.append("duck-level") }
        if stateDir != new.stateDir { keys.append("state-dir") }
        return keys
    }

    /// The keys a reload applied, for its log line.
    public func reloadedChanges(to new: DaemonSettings) -> [String] {
        var keys: [String] = []
        if logLevel != new.logLevel { keys.append("log-level") }
        if permissionPrompt != new.permissionPrompt { keys.append("permission-prompt") }
        if fallbackAnswer != new.fallbackAnswer { keys.append("permission-fallback") }
        if permissionTimeout != new.permissionTimeout { keys.append("permission-timeout") }
        if limits != new.limits { keys.append("limits") }
        if trust != new.trust { keys.append("trust") }
        if policy != new.policy { keys.append("policy") }
        return keys
    }
}

/// P4: `permission-timeout`'s range, in seconds.
public let permissionTimeoutRange = 0.1...86_400.0

/// P4: `permission-fallback`'s values.
public enum PermissionAnswer: String, Sendable, CaseIterable {
    case granted, denied
}

/// The configuration cannot be used; the message names the file, the line and what was wrong.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
