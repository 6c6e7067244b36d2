import AudioSessionWire
import Foundation

extension AudioSession {
    /// I1, I3: `interruption began` and `ended`; userInfo type, option and reason keys.
    /// (The names are AVAudioSession's, so observers written for iOS read the same.)
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// RT11: the route changed; userInfo reason and previous route.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// MS1: the daemon is gone; calls fail with `msrv` until the reset.
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
    /// MS2: the daemon is back; the session was reset (see `reappliesConfigurationAfterReset`).
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// OA3: other non-mixable audio started or stopped; userInfo hint type.
    public static let silenceSecondaryAudioHintNotification = Notification.Name(
        "AVAudioSessionSilenceSecondaryAudioHintNotification")
    /// HW7 (on iOS a key-value observation of `outputVolume`): userInfo `outputVolumeKey` as `Double`.
    public static let outputVolumeNotification = Notification.Name("AudioSessionOutputVolumeNotification")
    /// P2: the answer to `requestRecordPermission`: userInfo `recordPermissionGrantedKey` as `Bool`.
    public static let recordPermissionNotification = Notification.Name("AudioSessionRecordPermissionNotification")

    /// AVAudioSession's userInfo keys. Enum values are `UInt` (read them `as? UInt`, as iOS
    /// code does); the previous route is a `Route`.
    public enum UserInfoKey {
        /// `UInt`: 1 began, 0 ended.
        public static let interruptionType = "AVAudioSessionInterruptionTypeKey"
        /// `UInt`: 1 shouldResume (ended only).
        public static let interruptionOptions = "AVAudioSessionInterruptionOptionKey"
        /// `UInt`: `InterruptionReason.rawValue` (began only).
        public static let interruptionReason = "AVAudioSessionInterruptionReasonKey"
        /// `UInt`: `RouteChangeReason.rawValue`.
        public static let routeChangeReason = "AVAudioSessionRouteChangeReasonKey"
        /// `Route`: the route before the change.
        public static let routeChangePreviousRoute = "AVAudioSessionRouteChangePreviousRouteKey"
        /// `UInt`: 1 begin, 0 end.
        public static let silenceSecondaryAudioHintType = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
        /// `Double`.
        public static let outputVolume = "AudioSessionOutputVolumeKey"
        /// `Bool`.
        public static let recordPermissionGranted = "AudioSessionRecordPermissionGrantedKey"
    }

    /// A new stream of this session's notifications, from now on, in delivery order (SPEC
    /// §13, N2). It ends when the session is closed.
    public func notifications() -> AsyncStream<SessionNotification> {
        let (stream, continuation) = AsyncStream<SessionNotification>.makeStream()
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.streams[state.nextToken] = continuation
            return state.nextToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: token) }
        }
        return stream
    }

    /// Calls `handler` with each notification from now on, in delivery order, on the
    /// session's event queue (before the streams and NotificationCenter). The queue is serial,
    /// one per session: the delivery context of SPEC §13; a handler may call the session.
    /// - Returns: a token for `removeNotificationHandler(_:)`.
    @discardableResult
    public func addNotificationHandler(_ handler: @escaping @Sendable (SessionNotification) -> Void) -> NotificationHandlerToken {
        state.withLock { state in
            state.nextToken += 1
            state.handlers.append((state.nextToken, handler))
            return NotificationHandlerToken(rawValue: state.nextToken)
        }
    }

    /// The handler is not called again (once any call under way returns).
    public func removeNotificationHandler(_ token: NotificationHandlerToken) {
        state.withLock { $0.handlers.removeAll { $0.token == token.rawValue } }
    }

    /// Runs on `eventQueue`, in arrival order.
    func dispatch(_ event: ServerEvent) {
        switch event {
        case .notification(_, .mediaServicesReset):
            // MS2, MS3: the daemon reset the session (its sound server came back): re-apply first
            // when asked, as after a reconnection.
            for call in state.withLock(\.callsAfterReset) { try? perform(call) }
            deliver(.mediaServicesReset)
        case .notification(_, let notification): deliver(notification)
        case .outputGain(let gain): state.withLock { $0.outputGain = gain }
        case .stopIO, .observed, .permissionPrompt: break
        }
    }

    /// Hands a notification to the streams, NotificationCenter and permission waiters.
    func deliver(_ notification: SessionNotification) {
        let (handlers, streams, waiters, posts) = state.withLock { state in
            var waiters: [CheckedContinuation<Bool, Never>] = []
            if case .recordPermission = notification {
                waiters = Array(state.permissionWaiters.values)
                state.permissionWaiters.removeAll()
            }
            return (state.handlers, Array(state.streams.values), waiters, state.postsToNotificationCenter)
        }
        for (_, handler) in handlers { handler(notification) }
        for stream in streams { stream.yield(notification) }
        if case .recordPermission(let granted) = notification {
            for waiter in waiters { waiter.resume(returning: granted) }
        }
        guard posts else { return }
        let (name, userInfo) = Self.post(notification)
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }

    func finishStreams() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }

    /// The NotificationCenter form of a notification: AVAudioSession's name and userInfo (the
    /// previous route as a `Route`).
    public static func post(_ notification: SessionNotification) -> (name: Notification.Name, userInfo: [AnyHashable: Any]) {
        switch notification {
        case .interruptionBegan(let reason):
            return (
                interruptionNotification,
                [
                    UserInfoKey.interruptionType: UInt(1), UserInfoKey.interruptionReason: UInt(reason.rawValue),
                ]
            )
        case .interruptionEnded(let shouldResume):
            return (
                interruptionNotification,
                [
                    UserInfoKey.interruptionType: UInt(0), UserInfoKey.interruptionOptions: UInt(shouldResume ? 1 : 0),
                ]
            )
        case .routeChange(let reason, let previous, _):
            return (
                routeChangeNotification,
                [
                    UserInfoKey.routeChangeReason: UInt(reason.rawValue), UserInfoKey.routeChangePreviousRoute: previous,
                ]
            )
        case .silenceSecondaryAudioHint(let type):
            return (silenceSecondaryAudioHintNotification, [UserInfoKey.silenceSecondaryAudioHintType: UInt(type.rawValue)])
        case .mediaServicesLost: return (mediaServicesWereLostNotification, [:])
        case .mediaServicesReset: return (mediaServicesWereResetNotification, [:])
        case .outputVolume(let volume): return (outputVolumeNotification, [UserInfoKey.outputVolume: volume])
        case .recordPermission(let granted):
            return (recordPermissionNotification, [UserInfoKey.recordPermissionGranted: granted])
        }
    }
}

/// Identifies a handler added with `AudioSession.addNotificationHandler(_:)`.
public struct NotificationHandlerToken: Hashable, Sendable {
    let rawValue: UInt64
}
