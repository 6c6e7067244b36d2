@_exported import AudioSessionClient
import AudioSessionWire
import Foundation

// The client (AudioSessionClient) with what an app expects of AVAudioSession's shape beyond it:
// notifications posted on NotificationCenter, `AudioSession.shared`, initializers that post.
// Foundation (and its CoreFoundation, some 5 MiB of a process's memory) stays here, out of the
// players bridge, which links the client alone.

extension AudioSession {
    /// A session for an app that also posts its notifications on `NotificationCenter.default`
    /// (with this session as the object); nothing connects until `connect()` or the first call.
    ///
    /// With `player`, a session for another program's player (MPRIS), held by the players bridge
    /// (§16): the daemon counts the sound-server streams of `player.processID` and its
    /// descendants as this app's own (PL1) and shows its identity in status (PL7). One process
    /// may hold many sessions.
    public convenience init(
        appID: AppID, capabilities: AppCapabilities = [], transport: AudioSessionTransport = .embedded,
        player: PlayerClaim? = nil
    ) {
        self.init(appID: appID, capabilities: capabilities, transport: transport, player: player) { session, notification in
            let (name, userInfo) = AudioSession.post(notification)
            NotificationCenter.default.post(name: name, object: session, userInfo: userInfo)
        }
        Self.installMainRunLoopTurn()
    }

    /// N4: `waitForPendingNotifications` on the main thread turns the main run loop (5 ms at a
    /// time) until the posts handed to the main queue are made.
    public static func installMainRunLoopTurn() {
        mainRunLoopTurn.withLock { turn in
            if turn == nil { turn = { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005)) } }
        }
        mainQueueSubmit.withLock { submit in
            if submit == nil { submit = { job in OperationQueue.main.addOperation(job) } }
        }
    }

    /// The session of this process, connected as `AudioSessionTransport.fromEnvironment` says.
    /// Its app id is `AUDIOSESSION_APP_ID` or the process name (each character an app id may
    /// not hold, `AppID.allowedCharacters`, made `_`); its capabilities
    /// `AUDIOSESSION_CAPABILITIES` (comma-separated `background-audio`, `now-playing`).
    public static let shared: AudioSession = {
        let (app, capabilities) = AudioSession.processIdentity()
        return AudioSession(appID: app, capabilities: capabilities, transport: .fromEnvironment)
    }()

    /// Whether notifications are also posted on `NotificationCenter.default` (on by default).
    /// A layer that posts its own (the AVFAudio module, with its session as the object) turns
    /// it off, so observers are not told twice.
    public var postsToNotificationCenter: Bool {
        get { callsPoster }
        set { callsPoster = newValue }
    }

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
