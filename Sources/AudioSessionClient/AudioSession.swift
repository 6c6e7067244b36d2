@_exported import AudioSessionModel
import AudioSessionWire
import Dispatch
import Synchronization

/// An app's audio session, with the shape of AVAudioSession: declare intent with
/// `setCategory(_:mode:options:)`, claim audio with `setActive(_:options:)`, and learn what
/// happened from `notifications()` or `addNotificationHandler(_:)`.
///
/// This module (`AudioSessionClient`) is the client without Foundation's NotificationCenter, for
/// programs that count their memory (the players bridge); apps import `AudioSession`, which adds
/// NotificationCenter posts, `AudioSession.shared` and initializers without a poster. The
/// connection opens on first use. Calls are synchronous and throw the
/// engine's `SessionError`; while the daemon is gone they throw `msrv` (MS1).
public final class AudioSession: Sendable {
    /// The app this session belongs to.
    public let appID: AppID
    /// The app's capabilities, declared when the connection opens (SPEC §0).
    public let capabilities: AppCapabilities
    /// Where the arbiter is.
    public let transport: AudioSessionTransport
    /// §16: the other program's player this session speaks for (the players bridge), if any.
    public let player: PlayerClaim?

    struct State {
        enum Phase { case idle, connected, lost, closed }
        var phase = Phase.idle
        var connection: (any SessionConnection)?
        /// Which connection is current; a late `lost` from an older one is ignored.
        var generation: UInt64 = 0
        var remembered = RememberedConfiguration()
        var reappliesConfigurationAfterReset = false
        var streams: [UInt64: AsyncStream<SessionNotification>.Continuation] = [:]
        /// In the order added, with the token that removes each.
        var handlers: [(token: UInt64, handler: @Sendable (SessionNotification) -> Void)] = []
        /// Sound objects' handlers, called before `handlers` (`addSoundObjectHandler`).
        var soundObjectHandlers: [(token: UInt64, handler: @Sendable (SessionNotification) -> Void)] = []
        /// Whether the session is active as far as its own calls and notifications say (nil: it
        /// never was): what MediaPlayer's PlaybackStatus follows.
        var knownActive: Bool?
        /// N3: the event queue's held stretches, one per call under way (`holdingEvents`).
        var gates: [UInt64: EventGate] = [:]
        var nextGate: UInt64 = 0
        var callsPoster = true
        /// N4: the poster a layer put in place of the one given at init, and the posts in order.
        var replacedPoster: Poster?
        var posts = Posts()
        var permissionWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextToken: UInt64 = 0
        var lastStatus: SessionStatus?
        var outputGain: Double = 1

        /// MS2: what to call on a fresh session after a reset: the remembered configuration when
        /// the app asked for the automatic re-apply, else nothing.
        var callsAfterReset: [AppCall] { reappliesConfigurationAfterReset ? remembered.calls : [] }
    }

    let state = Mutex(State())
    /// Events are handed to observers here, in order, never on the connection's thread (so
    /// an observer may call the session back).
    let eventQueue = DispatchQueue(label: "audiosession.events")

    /// Called with each notification after the handlers and streams, while `callsPoster` (the
    /// `AudioSession` module's NotificationCenter post).
    public typealias Poster = @Sendable (AudioSession, SessionNotification) -> Void
    let poster: Poster?

    /// A session for an app; nothing connects until `connect()` or the first call.
    ///
    /// With `player`, a session for another program's player (MPRIS), held by the players bridge
    /// (§16): the daemon counts the sound-server streams of `player.processID` and its
    /// descendants as this app's own (PL1) and shows its identity in status (PL7). One process
    /// may hold many sessions.
    public init(
        appID: AppID, capabilities: AppCapabilities = [], transport: AudioSessionTransport = .embedded,
        player: PlayerClaim? = nil, poster: Poster?
    ) {
        self.appID = appID
        self.capabilities = capabilities
        self.transport = transport
        self.player = player
        self.poster = poster
    }

    deinit { state.withLock { $0.connection }?.close() }

    /// MS2: when the daemon comes back, re-apply the last category, mode, options,
    /// preferences, preferred input and active state before posting `media-services-reset`.
    /// Off by default, as on iOS, where the app re-applies them itself.
    public var reappliesConfigurationAfterReset: Bool {
        get { state.withLock { $0.reappliesConfigurationAfterReset } }
        set { state.withLock { $0.reappliesConfigurationAfterReset = newValue } }
    }

    /// Whether the poster given at init is called (on by default). The `AudioSession` module's
    /// `postsToNotificationCenter` reads and sets this.
    public var callsPoster: Bool {
        get { state.withLock { $0.callsPoster } }
        set { state.withLock { $0.callsPoster = newValue } }
    }

    /// Opens the connection now (it opens on first use otherwise).
    /// - Throws: `msrv` when no daemon listens; -50 when the app id is already connected.
    public func connect() throws(SessionError) {
        _ = try connection()
    }

    /// Closes the connection: the arbiter treats the app as gone (its session deactivates with
    /// notify-others). Later calls throw -50.
    public func close() {
        let connection = state.withLock { state -> (any SessionConnection)? in
            state.phase = .closed
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close()
        eventQueue.async { self.finishStreams() }
    }

    /// Performs one app call (SPEC §0 step) on this session. The named methods call this.
    /// - Throws: the engine's `SessionError`; `msrv` while media services are lost.
    public func perform(_ call: AppCall) throws(SessionError) {
        // N3: what the call causes is posted after it returns.
        let reply = try holdingEvents { () throws(SessionError) in try connection().request(.call(call)) }
        switch reply {
        case .failed(let error):
            if error.code == .isBusy, case .setActive(false, _) = call { remember(call) }  // A5 deactivated
            throw error
        default:
            remember(call)
            switch call {
            case .setActive(let active, _): state.withLock { $0.knownActive = active }
            case .startOutput, .startInput: state.withLock { $0.knownActive = true }  // IO1
            default: break
            }
        }
    }

    /// Whether the session is active as far as this process knows without asking (its own
    /// `setActive`, an implicit activation, an interruption or a loss of media services since);
    /// nil while it never was. Reading it never connects.
    public var activityAsKnown: Bool? { state.withLock { $0.knownActive } }

    /// Everything the app can read about its session now.
    /// - Throws: `msrv` while media services are lost.
    public func status() throws(SessionError) -> SessionStatus {
        switch try connection().request(.status) {
        case .status(let status):
            state.withLock { $0.lastStatus = status }
            return status
        case .failed(let error): throw error
        default: throw SessionError(.unspecified, "the daemon answered a status request with something else")
        }
    }

    /// Returns after every notification sent to this app so far has been handed to observers.
    public func waitForPendingNotifications() throws(SessionError) {
        try connection().flush()
        releaseHeldEvents()  // N3: asked for now, they are not held for the main queue
        eventQueue.sync {}
        waitForMainQueuePosts()  // N4: the posts handed to the main queue, made
    }

    /// The open connection, opening it if needed.
    func connection() throws(SessionError) -> any SessionConnection {
        try state.withLock { state throws(SessionError) -> any SessionConnection in
            switch state.phase {
            case .connected: if let connection = state.connection { return connection }
            case .lost: throw SessionError(.mediaServicesFailed, "MS1: media services were lost; reconnecting")
            case .closed: throw SessionError(.badParam, "the session of \(appID) was closed")
            case .idle: break
            }
            let generation = state.generation + 1
            let connection = try transport.connect(hello, handlers(generation))
            state.connection = connection
            state.generation = generation
            state.phase = .connected
            return connection
        }
    }

    var hello: Hello { Hello(role: .app(appID, capabilities), player: player) }

    func handlers(_ generation: UInt64) -> ConnectionHandlers {
        ConnectionHandlers(
            event: { [weak self] event in
                guard let self else { return }
                releaseReturnedCalls()  // N3: only what a call caused waits for its return
                eventQueue.async { self.dispatch(event) }
            },
            lost: { [weak self] in self?.connectionLost(generation) })
    }
}
