/// Why a session was interrupted (SPEC §13).
public enum InterruptionReason: UInt32, Hashable, Sendable, CustomStringConvertible {
    case `default` = 0
    /// I7: the built-in microphone was muted.
    case builtInMicMuted = 2

    public var description: String {
        switch self {
        case .default: "default"
        case .builtInMicMuted: "builtInMicMuted"
        }
    }
}

/// Why a session's route changed: exactly one per route change (SPEC RT11, values of §13).
public enum RouteChangeReason: UInt32, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    case newDeviceAvailable = 1
    case oldDeviceUnavailable = 2
    case categoryChange = 3
    case override = 4
    case wakeFromSleep = 6
    case noSuitableRouteForCategory = 7
    case routeConfigurationChange = 8

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .newDeviceAvailable: "newDeviceAvailable"
        case .oldDeviceUnavailable: "oldDeviceUnavailable"
        case .categoryChange: "categoryChange"
        case .override: "override"
        case .wakeFromSleep: "wakeFromSleep"
        case .noSuitableRouteForCategory: "noSuitableRouteForCategory"
        case .routeConfigurationChange: "routeConfigurationChange"
        }
    }
}

/// The secondary-audio silence hint (OA3; begin 1, end 0 as in §13).
public enum SilenceSecondaryAudioHintType: UInt32, Hashable, Sendable, CustomStringConvertible {
    case end = 0
    case begin = 1

    public var description: String { self == .begin ? "begin" : "end" }
}

/// A record permission (SPEC P1), with the four-character values of §13.
public enum RecordPermission: UInt32, Hashable, Sendable, CustomStringConvertible {
    case undetermined = 1970168948  // 'undt'
    case denied = 1684369017  // 'deny'
    case granted = 1735552628  // 'grnt'

    public var description: String {
        switch self {
        case .undetermined: "undetermined"
        case .denied: "denied"
        case .granted: "granted"
        }
    }
}

/// What an app is told (SPEC §13). Delivered to the app owning the session, in order, once.
public enum SessionNotification: Hashable, Sendable, CustomStringConvertible {
    /// I1: the session was interrupted and is now inactive.
    case interruptionBegan(reason: InterruptionReason)
    /// I3: the interruption ended; `shouldResume` says whether the app may resume.
    case interruptionEnded(shouldResume: Bool)
    /// RT11: the session's current route changed from `previous` to `current`.
    case routeChange(reason: RouteChangeReason, previous: Route, current: Route)
    /// OA3: other, non-mixable audio started or stopped.
    case silenceSecondaryAudioHint(SilenceSecondaryAudioHintType)
    /// MS1: media services were lost.
    case mediaServicesLost
    /// MS2: media services are back; the session was reset.
    case mediaServicesReset
    /// HW7: the system output volume changed.
    case outputVolume(Double)
    /// P2: the user's record-permission answer.
    case recordPermission(granted: Bool)

    /// The scenario form, e.g. `interruption ended should-resume=true`.
    public var description: String {
        switch self {
        case .interruptionBegan(let reason): "interruption began reason=\(reason)"
        case .interruptionEnded(let resume): "interruption ended should-resume=\(resume)"
        case .routeChange(let reason, let previous, let current):
            "route-change reason=\(reason) previous=\(previous) current=\(current)"
        case .silenceSecondaryAudioHint(let type): "silence-secondary-audio-hint \(type)"
        case .mediaServicesLost: "media-services-lost"
        case .mediaServicesReset: "media-services-reset"
        case .outputVolume(let volume): "output-volume \(volume)"
        case .recordPermission(let granted): "record-permission \(granted ? "granted" : "denied")"
        }
    }

    /// N2: interruption events first, then route changes, then hints, then the rest.
    package var deliveryPhase: Int {
        switch self {
        case .interruptionBegan, .interruptionEnded: 0
        case .routeChange: 1
        case .silenceSecondaryAudioHint: 2
        default: 3
        }
    }
}
