import AudioSessionModel

/// What a step asks the world outside the engine to do or know.
public enum Effect: Hashable, Sendable {
    /// Deliver a notification to the app (SPEC §13), in this order.
    case notify(AppID, SessionNotification)
    /// Apply this effective output gain to the app's output (D4); sent for active sessions when it changes.
    case outputGain(AppID, Double)
    /// The app's I/O was stopped by the system (A5, I1, IO3).
    case stopIO(AppID, output: Bool, input: Bool)
    /// Show the record-permission prompt for the app (P2, P3); answer with `Step.recordPermissionAnswer`.
    case askRecordPermission(AppID)
    /// Apply this gain and mute to a stream of other audio (D1, C11, OA2, I4); sent when a
    /// stream starts and whenever either changes.
    case otherAudio(id: String, gain: Double, muted: Bool)
    /// The stream of other audio stopped: it is governed no more.
    case otherAudioStopped(id: String)
}

/// The result of one step: success or the error, and the effects it produced (in order).
public struct StepOutcome: Hashable, Sendable {
    /// `nil` on success. A failed step has no effects, except A5 (`!act`).
    public var error: SessionError?
    public var effects: [Effect]

    public init(error: SessionError? = nil, effects: [Effect] = []) {
        self.error = error
        self.effects = effects
    }

    /// The notifications among the effects, in delivery order.
    public var notifications: [(app: AppID, notification: SessionNotification)] {
        effects.compactMap {
            if case .notify(let app, let notification) = $0 { (app, notification) } else { nil }
        }
    }
}

extension Effect {
    /// A notification or a gain for an app (MS3: apps hear nothing while media services are lost).
    var isToAnApp: Bool {
        switch self {
        case .notify, .outputGain: true
        case .stopIO, .askRecordPermission, .otherAudio, .otherAudioStopped: false
        }
    }
}

extension AppCall {
    /// MS1: whether the call fails with `msrv` while media services are lost. The app state is
    /// the device shell's word about the app, not a use of media services: it is kept.
    var needsMediaServices: Bool {
        if case .setAppState = self { return false }
        return true
    }
}
