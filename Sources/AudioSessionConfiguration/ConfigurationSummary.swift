import AudioSessionDaemon
import AudioSessionRuntime

/// What a configuration sets, in the words of its keys (`audiosessiond --check-config`).
public struct ConfigurationSummary {
    public let text: String

    public init(_ settings: DaemonSettings, file: String) {
        let limits = settings.limits
        let descriptors = DescriptorBudget.hard  // what the daemon raises its soft limit to (T5)
        var lines = [
            "\(file): valid",
            "socket: \(settings.socket ?? "(default: $XDG_RUNTIME_DIR/audiosession/socket)")",
            "backend: \(settings.backend.rawValue)\(settings.pulseServer.map { " (\($0))" } ?? "")",
            "device: \(settings.profile.name)",
            "duck-level: \(settings.duckLevel)",
            "state-dir: \(settings.stateDir ?? "(none: settings kept in memory)")",
            "permission-prompt: \(settings.permissionPrompt.rawValue)",
            "log-level: \(settings.logLevel.rawValue)",
            "limits: hello-timeout \(limits.helloTimeout) s, pre-welcome-frame \(limits.preWelcomeFrame) B, "
                + "max-connections \(limits.connections), max-connections-per-uid \(limits.connectionsPerUID), "
                + "queued-output \(limits.queuedOutput) B, warning-interval \(limits.warningInterval) s",
            "in force with \(descriptors.limit) descriptors: \(descriptors.connections(limits))",
            "trust: \(settings.trust.mode.rawValue)",
        ]
        if settings.trust.mode == .system {
            let trust = settings.trust
            lines.append("  controllers: root\(Self.describe(trust.controllers))")
            lines.append("  monitors: root, the controllers\(Self.describe(trust.monitors))")
            lines.append("  app-start-state: \(trust.appStartState)")
            lines.append("  manifests: \(settings.manifestDirectory ?? "(none: no app has a capability)")")
            for app in trust.manifests.keys.sorted() {
                lines.append("    \(app): \(trust.manifests[app]!.capabilities.names)")
            }
        }
        text = lines.joined(separator: "\n")
    }

    private static func describe(_ set: PeerSet) -> String {
        var text = ""
        if !set.uids.isEmpty { text += ", uids \(set.uids.sorted().map(String.init).joined(separator: " "))" }
        if !set.groups.isEmpty { text += ", gids \(set.groups.sorted().map(String.init).joined(separator: " "))" }
        return text
    }
}
