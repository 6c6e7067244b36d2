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
            "permission-fallback: \(settings.fallbackAnswer ? "granted" : "denied")\(settings.permissionFallback == nil ? " (the \(settings.profile.name) profile's)" : "")",
            "permission-timeout: \(settings.permissionTimeout) s (the desktop notification's wait, P4)",
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
            lines.append("  system-session-roles: \(trust.systemSessionRoles.sorted().joined(separator: ", "))")
            lines.append("  manifests: \(settings.manifestDirectory ?? "(none: no app has a capability)")")
            for app in trust.manifests.keys.sorted() {
                lines.append("    \(app): \(trust.manifests[app]!.capabilities.names)")
            }
        }
        lines += Self.policy(settings.policy, duckLevel: settings.duckLevel)
        text = lines.joined(separator: "\n")
    }

    /// POL4: the effective table, first match first, defaults included.
    static func policy(_ policy: DevicePolicy, duckLevel: Double) -> [String] {
        var lines = ["policy (first match wins):", "  streams that are no app's or player's:"]
        for (entry, hider) in policy.streamsInOrder {
            let note = hider.map { " (never reached: \($0) matches first)" } ?? ""
            lines.append("    \(describe(entry.match)) -> \(entry.action)    \(entry.origin)\(note)")
        }
        lines.append("    any other stream -> other-audio    default (§7)")
        lines.append("  other audio while a non-mixable app session plays: \(policy.otherAudio) (other-audio, OA5)")
        lines.append(
            "  players whose headphones go away: \(policy.playersPauseOnDeviceLoss ? "paused" : "play on") (players-pause-on-device-loss, PL8)"
        )
        let calls = policy.calls
        lines.append(
            "  calls (§18): "
                + (calls.detect
                    ? "a program recording and playing for \(calls.afterMs) ms, until \(calls.hangoverMs) ms after its last recording"
                    : "not detected (detect: false)"))
        for entry in calls.entries {
            lines.append("    \(describe(entry.match)) -> \(entry.action)    \(entry.origin)")
        }
        lines.append("    any other program -> \(calls.action)    default (CL3)")
        lines.append("  players (§16):")
        for entry in policy.players {
            lines.append("    \(describe(entry.match)) -> \(entry.action)    \(entry.origin)")
        }
        lines.append("    any other player -> \(DevicePolicy.Intent.player)    default (PL1)")
        let roles = policy.duckLevelByRole.keys.sorted().map { "\($0) \(policy.duckLevelByRole[$0]!)" }
        lines.append(
            "  duck levels: \(duckLevel) (duck-level)" + (roles.isEmpty ? "" : "; by role: " + roles.joined(separator: ", ")))
        return lines
    }

    static func describe(_ match: DevicePolicy.StreamMatch) -> String {
        let parts = [("role", match.role), ("application-name", match.applicationName), ("binary", match.binary)]
            .compactMap { key, glob in glob.map { "\(key) \($0)" } }
        return parts.isEmpty ? "any stream" : parts.joined(separator: ", ")
    }

    static func describe(_ match: DevicePolicy.PlayerMatch) -> String {
        let parts = [("identity", match.identity), ("bus-name", match.busName)].compactMap { key, glob in
            glob.map { "\(key) \($0)" }
        }
        return parts.isEmpty ? "any player" : parts.joined(separator: ", ")
    }

    private static func describe(_ set: PeerSet) -> String {
        var text = ""
        if !set.uids.isEmpty { text += ", uids \(set.uids.sorted().map(String.init).joined(separator: " "))" }
        if !set.groups.isEmpty { text += ", gids \(set.groups.sorted().map(String.init).joined(separator: " "))" }
        return text
    }
}
