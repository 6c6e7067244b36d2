import AudioSessionEngine
import AudioSessionModel
import AudioSessionWire
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one serial owner of the engine: maps connections to apps, checks who may do what,
/// turns the engine's effects into messages, persists settings, and cleans up when a client
/// disappears. Transport-agnostic: the socket server and the in-process transport both use it.
///
/// Every method runs under one lock, and messages are handed to the sinks under it, so each
/// connection receives its notifications in engine order and a request's events before its
/// reply. Sinks only enqueue, so the lock is held for microseconds.
public final class Arbiter: Sendable {
    /// How an arbiter starts.
    public struct Configuration: Sendable {
        public var profile: DeviceProfile
        public var duckLevel: Double
        /// Where settings persist; `nil` keeps them in memory only.
        public var store: (any SettingsPersistence)?
        /// Who answers record-permission prompts (reloadable: `reload(_:)`).
        public var permissionPolicy: PermissionPolicy
        /// T1: the trust mode and its lists (reloadable: `reload(_:)`).
        public var trust: TrustPolicy
        /// §17: what streams and players that declare nothing intend (reloadable: `reload(_:)`).
        public var policy: DevicePolicy
        /// Nanoseconds since 1970 for event timestamps (injected so tests need no real clock).
        public var now: @Sendable () -> UInt64

        public init(
            profile: DeviceProfile = .iphone, duckLevel: Double = 0.2, store: (any SettingsPersistence)? = nil,
            permissionPolicy: PermissionPolicy = .ask, trust: TrustPolicy = .user, policy: DevicePolicy = DevicePolicy(),
            now: @escaping @Sendable () -> UInt64 = { 0 }
        ) {
            self.profile = profile
            self.duckLevel = duckLevel
            self.store = store
            self.permissionPolicy = permissionPolicy
            self.trust = trust
            self.policy = policy
            self.now = now
        }
    }

    /// What a running arbiter may change on a reload (SIGHUP) without dropping a connection.
    public struct Rules: Sendable, Equatable {
        public var trust: TrustPolicy
        public var permissionPolicy: PermissionPolicy
        /// §17: what streams and players that declare nothing intend.
        public var policy: DevicePolicy

        public init(trust: TrustPolicy, permissionPolicy: PermissionPolicy, policy: DevicePolicy = DevicePolicy()) {
            self.trust = trust
            self.permissionPolicy = permissionPolicy
            self.policy = policy
        }
    }

    /// A connection's handle, given by `connect`.
    public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
        let rawValue: UInt64
        public var description: String { "#\(rawValue)" }
    }

    struct Connection: Sendable {
        let role: ClientRole
        let peer: PeerCredentials
        let sink: any ConnectionSink
        /// T1: a controller the trust policy lets send system events, answer permission prompts,
        /// set app states and reset the device (judged at connect and on every reload).
        var isSystemController: Bool
        /// T4: reads every app's status and notifications, not only its own uid's.
        var seesEveryApp: Bool
        var app: AppID? { if case .app(let app, _) = role { app } else { nil } }

        init(role: ClientRole, peer: PeerCredentials, sink: any ConnectionSink, trust: TrustPolicy) {
            self.role = role
            self.peer = peer
            self.sink = sink
            isSystemController = false
            seesEveryApp = false
            judge(by: trust)
        }

        mutating func judge(by trust: TrustPolicy) {
            isSystemController = role == .controller && trust.mayControl(peer)
            seesEveryApp = trust.seesEveryApp(peer)
        }

        /// Whether this reader (a monitor or controller) may see an app of that uid (T4).
        func sees(_ uid: UInt32?) -> Bool { seesEveryApp || peer.uid == uid }
    }

    struct State: Sendable {
        var engine: Engine
        var connections: [UInt64: Connection] = [:]
        /// Each connected app's connection, with what a fan-out needs of it (its sink, its uid)
        /// at hand: one lookup, no copy of the connection (issue 30: under the lock).
        var connectionByApp: [AppID: AppLink] = [:]
        /// Connections that asked for every notification (`subscribe`).
        var subscribers: [UInt64] = []
        var nextConnection: UInt64 = 1
        /// Orders notifications across all apps.
        var sequence: UInt64 = 0
        var savedSettings: DeviceSettings
        /// The uid each app id holding a record permission belongs to (persisted with it): an
        /// app id is bound to the uid that was connected as it when its permission was answered.
        var owners: [AppID: UInt32] = [:]
        var savedOwners: [AppID: UInt32] = [:]
        /// T2: the uid that first registered each app id, for the daemon's lifetime, keyed by the
        /// id's hash (randomly seeded per process) so a long history costs 16 bytes per id.
        var registrants: [Int: UInt32] = [:]
        /// The device it governs (`attach`), told after every step.
        var backend: (any AudioBackend)?
        /// T1 and P2 as configured now (`reload`).
        var rules: Rules
        /// §16: the player each player app speaks for, by app (PL1).
        var players: [AppID: PlayerClaim] = [:]
        /// PL9: interrupted players' sessions whose bridge went away, held for it.
        var heldPlayers: [AppID: HeldPlayer] = [:]
        /// POL3: the media role of each stream of other audio that has one, by id.
        var otherAudioRoles: [String: String] = [:]
        /// POL2: the sessions the daemon hosts for streams, by app.
        var hosted: [AppID: HostedSession] = [:]
        /// SO1: the sound-server streams of each connected app's own process, for status.
        var processStreams: [AppID: [String]] = [:]
        /// POL1, POL4: the policy entry that gave each player app its intent.
        var playerOrigins: [AppID: String] = [:]
        /// MS3: when media services were lost (the sound server went away), by `now`; nil
        /// while they stand.
        var mediaServicesLostSince: UInt64?

        /// The uid a connected app is connected as (T4: who may see it), nil for none.
        func uid(of app: AppID) -> UInt32? { connectionByApp[app]?.uid }
    }

    /// A connected app's connection id, sink and uid.
    struct AppLink: Sendable {
        let id: UInt64
        let sink: any ConnectionSink
        let uid: UInt32
    }

    let state: Mutex<State>
    let configuration: Configuration
    let logger: Logger

    /// An arbiter with the saved settings of the store, if any.
    /// - Throws: `StoreError` when the store holds an invalid file.
    public init(configuration: Configuration, logger: Logger) throws(StoreError) {
        var engine = Engine(profile: configuration.profile, duckLevel: configuration.duckLevel)
        engine.otherAudioTreatment = configuration.policy.otherAudio  // OA5
        let (settings, owners) = try configuration.store?.loadState() ?? (DeviceSettings(), [:])
        do { try engine.restore(settings) } catch {
            throw StoreError((configuration.store.map { "\($0.file): " } ?? "") + error.message)
        }
        let rules = Rules(
            trust: configuration.trust, permissionPolicy: configuration.permissionPolicy, policy: configuration.policy)
        self.state = Mutex(
            State(engine: engine, savedSettings: settings, owners: owners, savedOwners: owners, rules: rules))
        self.configuration = configuration
        self.logger = logger
    }

    /// The engine as it is now (for this package's tests and tools; apps and backends read
    /// `status(of:)` and `deviceStatus`).
    package var engine: Engine { state.withLock { $0.engine } }

    /// An app's session as the app reads it, or `nil` for an app not registered.
    public func status(of app: AppID) -> SessionStatus? { state.withLock { $0.engine.status(of: app) } }

    /// The device: ports, routing owner, system sessions, other audio (SPEC §0, RT9, OA1).
    public var deviceStatus: DeviceStatus { state.withLock { $0.engine.deviceStatus } }

    /// HW6: the gain of each input port that has one set, by UID.
    public var inputGains: [String: Double] { state.withLock { $0.engine.inputGains } }

    /// HW6, HW7: the routing owner, output volume, input ports and their gains, under one lock
    /// (what the backend writes to the server's devices after every step).
    public var deviceLevels: (routingOwner: AppID?, outputVolume: Double, inputs: [Port], inputGains: [String: Double]) {
        state.withLock { state in
            let levels = state.engine.deviceLevels
            return (levels.routingOwner, levels.outputVolume, levels.inputs, state.engine.inputGains)
        }
    }

    /// Accepts a client's hello. Apps are registered (or registered again after their
    /// process departed); a second connection for an app id already connected is refused.
    /// - Returns: the connection's handle, or the error to send in `closing`.
    public func connect(
        _ hello: Hello, peer: PeerCredentials, sink: any ConnectionSink
    ) -> Result<ConnectionID, SessionError> {
        guard hello.version == ProtocolVersion.current else {
            return .failure(
                SessionError(
                    .badParam, "protocol version \(hello.version) is not supported; this daemon speaks \(ProtocolVersion.current)"
                ))
        }
        return state.withLock { state -> Result<ConnectionID, SessionError> in
            let trust = state.rules.trust
            if case .app(let app, _) = hello.role, let problem = Self.problem(with: app) {
                return .failure(problem)  // T3, before the id is logged
            }
            var hello = hello
            if hello.player != nil, trust.mode == .system, case .app(let app, _) = hello.role {
                // PL1 in the system trust mode: a player's app has what the device's manifest for
                // its id grants (none without one), whatever the bridge declares — the device
                // decides, and the player is governed rather than refused.
                hello.role = .app(app, trust.manifests[app]?.capabilities ?? [])
            }
            if let refusal = trust.refusal(of: hello.role, from: peer) {
                logger.warning(
                    "refused a hello the trust policy does not allow", metadata: ["peer": "\(peer)", "error": "\(refusal)"])
                return .failure(refusal)
            }
            // PL9: a bridge that comes back for a player whose session was held takes it back.
            if let taken = takeBack(hello, peer: peer, sink: sink, &state) { return taken }
            if case .app(let app, _) = hello.role, state.heldPlayers.removeValue(forKey: app) != nil {
                depart(app, &state)  // held for another process (the player itself was replaced): let go
            }
            var intent: (DevicePolicy.Intent, origin: String)?
            if let player = hello.player {
                if let refusal = Self.refusal(of: player, from: peer) { return .failure(refusal) }
                // PL1: an MPRIS player whose process is a connected app (an iOS player's
                // MediaPlayer over MPRIS) is that app already: never governed a second time.
                if let own = state.connections.values.first(where: {
                    $0.app != nil && $0.peer.pid == player.processID && $0.peer != .thisProcess
                })?.app {
                    return .failure(
                        SessionError(
                            .badParam,
                            "PL1: this player's process is the connected app \(own)'s; its session governs it already"))
                }
                // POL1: the device policy's intent for the player, or it is not governed at all.
                switch state.rules.policy.action(forPlayer: player.identity, busName: player.busName) {
                case (.ignore, let origin):
                    return .failure(
                        SessionError(.badParam, "POL1: the device policy ignores this player (\(origin)); it stays other audio"))
                case (.intent(let chosen), let origin): intent = (chosen, origin)
                }
            }
            let start = trust.mode == .system ? trust.appStartState : .foreground
            let registered = register(hello, peer: peer, sink: sink, start: start, &state)
            if case .success = registered, let (chosen, origin) = intent, case .app(let app, _) = hello.role {
                // The player's category is the table's from its first step; the bridge sets none.
                state.playerOrigins[app] = origin
                state.engine.setPausesOnDeviceLoss(app, state.rules.policy.playersPauseOnDeviceLoss)  // PL8
                let call = AppCall.setCategory(chosen.category, mode: chosen.mode, options: chosen.options)
                if case .failed(let error) = perform(.app(app, call), &state) {
                    logger.warning("cannot give a player its intent", metadata: ["app": "\(app)", "error": "\(error)"])
                }
            }
            return registered
        }
    }

    /// A connection the trust policy admitted, or the daemon's own (`hostSession`): its app id
    /// claimed and registered, then the connection recorded.
    func register(
        _ hello: Hello, peer: PeerCredentials, sink: any ConnectionSink, start: AppState, _ state: inout State
    ) -> Result<ConnectionID, SessionError> {
        if case .app(let app, let capabilities) = hello.role {
            if let refusal = claim(app, by: peer, &state) { return .failure(refusal) }
            do throws(SessionError) { try state.engine.register(app, capabilities: capabilities, state: start) } catch {
                return .failure(error)
            }
        }
        let trust = state.rules.trust
        let id = state.nextConnection
        state.nextConnection += 1
        state.connections[id] = Connection(role: hello.role, peer: peer, sink: sink, trust: trust)
        if case .app(let app, _) = hello.role {
            state.connectionByApp[app] = AppLink(id: id, sink: sink, uid: peer.uid)
            if let player = hello.player {
                state.players[app] = player
                state.backend?.playersChanged()
            } else if peer.pid > 1, peer.pid != getpid() {
                // PL1: a player's process that connects as an app of its own after the bridge
                // claimed it (MPRIS published before its session connected: an iOS app's
                // MPRemoteCommandCenter set up first) is that app, governed once: the bridge's app
                // for it is let go, its connection closed (the bridge's claim is refused from now on).
                for (player, claim) in state.players where claim.processID == peer.pid && player != app {
                    letGoOfPlayer(player, for: app, &state)
                }
                // SO1: streams its process already plays are its own from now on.
                state.backend?.playersChanged()
            }
        }
        logger.debug("connected", metadata: ["connection": "#\(id)", "role": "\(hello.role)", "peer": "\(peer)"])
        return .success(ConnectionID(rawValue: id))
    }

    /// T2: an app id belongs to the uid that first registered it (for the daemon's lifetime, and
    /// in the store when it holds a record permission); another uid's claim is refused without
    /// naming the holder. A second connection for a connected id is refused too.
    private func claim(_ app: AppID, by peer: PeerCredentials, _ state: inout State) -> SessionError? {
        let holder = state.owners[app] ?? state.registrants[app.hashValue]
        if let holder, holder != peer.uid {
            logger.warning(
                "refused an app id that belongs to another uid",
                metadata: ["app": "\(app)", "peer": "\(peer)", "holder": "\(holder)"])
            return SessionError(.badParam, "app \(app) belongs to another user; choose another app id")
        }
        if let existing = state.connectionByApp[app], let other = state.connections[existing.id] {
            logger.warning(
                "refused a second connection for app \(app)", metadata: ["peer": "\(peer)", "connected": "\(other.peer)"])
            return SessionError(.badParam, "app \(app) is already connected (pid \(other.peer.pid))")
        }
        if holder == nil { state.registrants[app.hashValue] = peer.uid }
        return nil
    }

    /// Replaces the trust policy and the permission policy (SIGHUP). Every connection is judged
    /// again for what it may do from now on; none is dropped. Apps keep the capabilities they
    /// were welcomed with until they reconnect.
    public func reload(_ rules: Rules) {
        state.withLock { state in
            state.rules = rules
            for id in state.connections.keys { state.connections[id]?.judge(by: rules.trust) }
            // PL8: the players present follow the new choice.
            for app in state.players.keys { state.engine.setPausesOnDeviceLoss(app, rules.policy.playersPauseOnDeviceLoss) }
            if state.engine.otherAudioTreatment != rules.policy.otherAudio {
                // OA5: the streams playing now get the new choice at once.
                deliver(state.engine.setOtherAudioTreatment(rules.policy.otherAudio), &state)
            }
        }
    }

    /// The rules in force.
    public var rules: Rules { state.withLock { $0.rules } }

    /// The connection is gone. An app's session is deactivated as if it had called
    /// `setActive(false, .notifyOthersOnDeactivation)` (`Step.departure`): nobody stays ducked,
    /// silenced or interrupted because of a dead app.
    public func disconnect(_ connection: ConnectionID) {
        state.withLock { state in
            guard let gone = state.connections.removeValue(forKey: connection.rawValue) else { return }
            state.subscribers.removeAll { $0 == connection.rawValue }
            guard let app = gone.app else { return }
            state.connectionByApp[app] = nil
            if holdIfInterruptedPlayer(app, peer: gone.peer, &state) { return }  // PL9
            depart(app, &state)
            logger.debug("app departed", metadata: ["app": "\(app)", "peer": "\(gone.peer)"])
        }
    }

    /// PL1: a player's app whose process connected as `app`: it departs and the bridge's connection
    /// for it is closed.
    func letGoOfPlayer(_ player: AppID, for app: AppID, _ state: inout State) {
        let link = state.connectionByApp[player]
        logger.info(
            "PL1: a player's process connected as an app of its own; the bridge's app for it is let go",
            metadata: ["player": "\(player)", "app": "\(app)"])
        depart(player, &state)
        if let link, let connection = state.connections.removeValue(forKey: link.id) {
            state.subscribers.removeAll { $0 == link.id }
            connection.sink.close()
        }
    }

    /// An app without a connection departs (`Step.departure`).
    func depart(_ app: AppID, _ state: inout State) {
        state.connectionByApp[app] = nil
        state.hosted[app] = nil
        state.playerOrigins[app] = nil
        // PL1, SO1: the streams of its process change hands (other audio again).
        let hadStreams = state.processStreams.removeValue(forKey: app) != nil
        if state.players.removeValue(forKey: app) != nil || hadStreams { state.backend?.playersChanged() }
        deliver(state.engine.apply(.departure(app)).effects, &state)
    }

    /// Handles one request of a connection and returns its reply; the events it caused have
    /// been handed to their sinks already.
    public func handle(_ request: Request, from connection: ConnectionID) -> Reply {
        state.withLock { state in
            guard let client = state.connections[connection.rawValue] else {
                return .failed(SessionError(.badParam, "connection \(connection) is closed"))
            }
            return handle(request, client, connection.rawValue, &state)
        }
    }

    /// §16: the player app whose player runs as this process, if any (the backend asks for a
    /// stream's process and its ancestors).
    public func app(forProcess pid: Int32) -> AppID? { app(forFirstOf: [pid]) }

    /// §16: the player app of the first of these processes that runs a player (a stream's
    /// process and its ancestors, nearest first), under one lock.
    public func app(forFirstOf processes: [Int32]) -> AppID? {
        state.withLock { state in
            guard !state.players.isEmpty else { return nil }
            for pid in processes {
                if let app = state.players.first(where: { $0.value.processID == pid })?.key { return app }
            }
            return nil
        }
    }

    /// §16 PL1 (revision 6): the players governed now, by app (their process, identity, bus name),
    /// for an MPRIS proxy's streams, which come from another program.
    public var playerClaims: [AppID: PlayerClaim] { state.withLock { $0.players } }

    /// PL1: a connection may speak only for a player process of its own uid (root for any).
    static func refusal(of player: PlayerClaim, from peer: PeerCredentials) -> SessionError? {
        var info = stat()
        guard player.processID > 0, stat("/proc/\(player.processID)", &info) == 0 else {
            return SessionError(.badParam, "PL1: no process \(player.processID) for the player \(player.identity)")
        }
        guard peer.uid == 0 || info.st_uid == peer.uid else {
            return SessionError(
                .badParam, "PL1: process \(player.processID) is not yours; a player is governed by its own user's bridge")
        }
        guard OtherAudio.isValidLabel(player.identity) else {
            return SessionError(.badParam, "PL7: the player's identity must be printable text of at most 255 bytes")
        }
        return nil
    }

    /// App ids are 1…255 characters of `AppID.allowedCharacters`.
    static func problem(with app: AppID) -> SessionError? {
        app.problem.map { SessionError(.badParam, $0) }
    }
}

extension Arbiter {
    /// §9.1 on a sound server: whether the server has a device for the built-in microphone (the
    /// backend says; the port is listed only while it does).
    public func setBuiltInMicrophone(present: Bool) {
        state.withLock { state in deliver(state.engine.setBuiltInMicrophone(present: present), &state) }
    }

    /// What a backend reports of the device (the one door's way in): a port plugged or
    /// unplugged, a volume or input gain changed, other audio started or stopped, a call.
    /// Applied as a system step, its notifications delivered like any other's.
    /// - Returns: the engine's error, if the step failed (it then changed nothing, A7).
    @discardableResult
    public func report(_ event: SystemEvent) -> SessionError? {
        state.withLock { state in
            if case .failed(let error) = perform(.system(event), &state) { return error }
            // POL3: the role of each stream of other audio, for its duck level.
            switch event {
            case .otherAudioStarted(let audio): state.otherAudioRoles[audio.id] = audio.role
            case .otherAudioStopped(let id): state.otherAudioRoles[id] = nil
            default: break
            }
            return nil
        }
    }

    /// Attaches the device this arbiter governs (`AudioBackend`): from now on it is told after
    /// every step. One backend at a time; attaching another replaces it.
    public func attach(_ backend: any AudioBackend) {
        state.withLock { $0.backend = backend }
    }

    /// Closes every connection (the daemon is stopping); clients see media services lost (MS1).
    /// Returns once the settings are on disk.
    public func closeAll() {
        let sinks = state.withLock { state in state.connections.values.map(\.sink) }
        for sink in sinks { sink.close() }
        waitUntilSettingsSaved()
    }

    /// Returns once every settings change so far is on disk (they are written off the lock).
    public func waitUntilSettingsSaved() { configuration.store?.waitUntilSaved() }
}
