import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import FoundationEssentials
import Logging

/// `audiosessiond`'s configuration file (YAML; docs/configuration.md): read whole and checked
/// before anything of it is used, so a bad file changes nothing, at start or on a reload.
public enum ConfigurationFile {
    static let topKeys = [
        "socket", "backend", "pulse-server", "device", "duck-level", "state-dir", "permission-prompt", "permission-fallback",
        "permission-timeout", "log-level",
        "limits", "trust", "policy",
    ]
    package static let limitKeys = [
        "hello-timeout", "pre-welcome-frame", "max-connections", "max-connections-per-uid", "queued-output", "warning-interval",
    ]
    static let trustKeys = ["mode", "controllers", "monitors", "manifests", "app-start-state", "system-session-roles"]

    /// The settings of the file at `path`, over `base` (keys the file does not give keep
    /// `base`'s values).
    /// - Throws: `ConfigurationError` naming the file, the line and what was wrong; or, when the
    ///   file may be changed by someone the daemon should not trust (it is writable by group or
    ///   others, or owned by a user other than root and the daemon's), what was found.
    public static func read(
        _ path: String, over base: DaemonSettings = DaemonSettings()
    ) throws(ConfigurationError)
        -> DaemonSettings
    {
        try TrustedFile.check(path, what: "the configuration file")
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigurationError("cannot read the configuration file \(path): \(error)")
        }
        return try parse(text, file: path, over: base)
    }

    /// The settings a configuration text gives, over `base`.
    public static func parse(
        _ text: String, file: String, over base: DaemonSettings = DaemonSettings()
    )
        throws(ConfigurationError) -> DaemonSettings
    {
        let fields = YAMLFields(file: file)
        var settings = base
        guard let root = try fields.document(text) else { return settings }
        let values = try fields.mapping(root, "the configuration", known: topKeys)
        if let node = values["socket"] { settings.socket = try fields.string(node, "socket") }
        if let node = values["backend"] { settings.backend = try fields.choice(node, "backend", as: DaemonSettings.Backend.self) }
        if let node = values["pulse-server"] { settings.pulseServer = try fields.string(node, "pulse-server") }
        if let node = values["device"] {
            let name = try fields.string(node, "device")
            guard let profile = DeviceProfile(name: name) else {
                throw fields.error(
                    "device must be one of \(DeviceProfile.allCases.map(\.name).joined(separator: ", ")), not '\(name)'", at: node
                )
            }
            settings.device = profile
        }
        if let node = values["duck-level"] { settings.duckLevel = try fields.double(node, "duck-level (D1)", in: 0...1) }
        if let node = values["state-dir"] { settings.stateDir = try fields.string(node, "state-dir") }
        if let node = values["permission-fallback"] {
            settings.permissionFallback = try fields.choice(node, "permission-fallback", as: PermissionAnswer.self) == .granted
        }
        if let node = values["permission-timeout"] {
            settings.permissionTimeout = try fields.double(node, "permission-timeout (P4, seconds)", in: permissionTimeoutRange)
        }
        if let node = values["permission-prompt"] {
            settings.permissionPrompt = try fields.choice(node, "permission-prompt", as: PermissionPolicy.self)
        }
        if let node = values["log-level"] { settings.logLevel = try fields.choice(node, "log-level", as: Logger.Level.self) }
        if settings.pulseServer != nil, settings.backend != .pulse {
            throw fields.error("pulse-server needs backend: pulse", at: values["pulse-server"])
        }
        if let node = values["limits"] { settings.limits = try limits(node, fields, over: settings.limits) }
        if let node = values["trust"] {
            (settings.trust, settings.manifestDirectory) = try trust(node, fields)
        }
        if let node = values["policy"] { settings.policy = try PolicySection.read(node, fields) }
        return settings
    }

    /// T5: `limits:`.
    static func limits(_ node: YAMLNode, _ fields: YAMLFields, over base: DaemonLimits) throws(ConfigurationError) -> DaemonLimits
    {
        let values = try fields.mapping(node, "limits", known: limitKeys)
        var limits = base
        if let node = values["hello-timeout"] {
            limits.helloTimeout = try fields.double(node, "limits.hello-timeout", in: 0.01...3600)
        }
        if let node = values["pre-welcome-frame"] {
            limits.preWelcomeFrame = try fields.int(node, "limits.pre-welcome-frame", atLeast: 64)
        }
        if let node = values["max-connections"] {
            limits.connections = try fields.int(node, "limits.max-connections", atLeast: 1)
        }
        if let node = values["max-connections-per-uid"] {
            limits.connectionsPerUID = try fields.int(node, "limits.max-connections-per-uid", atLeast: 1)
        }
        if let node = values["queued-output"] {
            limits.queuedOutput = try fields.int(node, "limits.queued-output", atLeast: 65536)
        }
        if let node = values["warning-interval"] {
            limits.warningInterval = try fields.double(node, "limits.warning-interval", in: 0...86400)
        }
        return limits
    }

    /// T1: `trust:`. The system mode's lists and manifests are read here; the user mode takes none.
    static func trust(_ node: YAMLNode, _ fields: YAMLFields) throws(ConfigurationError) -> (TrustPolicy, String?) {
        let values = try fields.mapping(node, "trust", known: trustKeys)
        let mode = try values["mode"].map { (node: YAMLNode) throws(ConfigurationError) in
            try fields.choice(node, "trust.mode", as: TrustPolicy.Mode.self)
        }
        guard mode == .system else {
            if let key = ["controllers", "monitors", "manifests", "app-start-state", "system-session-roles"].first(where: {
                values[$0] != nil
            }) {
                throw fields.error("trust.\(key) applies to the system trust mode only (trust.mode: system)", at: values[key])
            }
            return (.user, nil)
        }
        var policy = TrustPolicy(mode: .system)
        if let node = values["controllers"] { policy.controllers = try peers(node, "trust.controllers", fields) }
        if let node = values["monitors"] { policy.monitors = try peers(node, "trust.monitors", fields) }
        if let node = values["app-start-state"] {
            let text = try fields.string(node, "trust.app-start-state")
            guard text == "foreground" || text == "background" else {
                throw fields.error("trust.app-start-state must be foreground or background, not '\(text)'", at: node)
            }
            policy.appStartState = text == "foreground" ? .foreground : .background
        }
        if let node = values["system-session-roles"] {
            policy.systemSessionRoles = []
            for item in try fields.list(node, "trust.system-session-roles") {
                let role = try fields.string(item, "trust.system-session-roles")
                guard OtherAudio.isValidLabel(role) else {
                    throw fields.error("trust.system-session-roles: '\(role)' is no media role", at: item)
                }
                policy.systemSessionRoles.insert(DevicePolicy.role(role))
            }
        }
        var directory: String?
        if let node = values["manifests"] {
            let path = try fields.string(node, "trust.manifests")
            policy.manifests = try ManifestDirectory.read(path)
            directory = path
        }
        return (policy, directory)
    }

    /// `users:` and `groups:`, by name or number.
    static func peers(_ node: YAMLNode, _ name: String, _ fields: YAMLFields) throws(ConfigurationError) -> PeerSet {
        let values = try fields.mapping(node, name, known: ["users", "groups"])
        var set = PeerSet()
        for item in try fields.list(values["users"], "\(name).users") {
            let text = try fields.string(item, "\(name).users")
            guard let uid = Accounts.uid(of: text) else {
                throw fields.error("\(name).users: no user '\(text)' on this system", at: item)
            }
            set.uids.insert(uid)
        }
        for item in try fields.list(values["groups"], "\(name).groups") {
            let text = try fields.string(item, "\(name).groups")
            guard let gid = Accounts.gid(of: text) else {
                throw fields.error("\(name).groups: no group '\(text)' on this system", at: item)
            }
            guard gid != 0 else {
                throw fields.error(
                    "\(name).groups: group 0 cannot be listed (a peer's groups are read so that 0 means none); root, uid 0, is always trusted",
                    at: item)
            }
            set.groups.insert(gid)
        }
        return set
    }
}
