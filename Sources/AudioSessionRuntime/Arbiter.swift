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
        /// P4: the answer to a prompt nobody can answer; nil: it waits (reloadable: `reload(_:)`).
        public var permissionFallback: Bool? = nil
        /// P4: who asks the user when no system controller is connected (the desktop's
        /// notification server); nil: nobody, the fallback answers at once.
        public var permissionAgent: (any PermissionAgent)? = nil
        /// P4: how long the agent's question waits (reloadable: `reload(_:)`).
        public var permissionTimeout: Duration = .seconds(60)
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
        /// P4: the answer to a prompt no permission agent can answer (no system controller
        /// connected); nil: it waits (P2), as an embedded arbiter's does.
        public var permissionFallback: Bool?
        /// P4: how long the permission agent's question waits for the user before the fallback
        /// answers (`permission-timeout`).
        public var permissionTimeout: Duration

        public init(
            trust: TrustPolicy, permissionPolicy: PermissionPolicy, policy: DevicePolicy = DevicePolicy(),
            permissionFallback: Bool? = nil, permissionTimeout: Duration = .seconds(60)
        ) {
            self.trust = trust
            self.permissionPolicy = permissionPolicy
            self.policy = policy
            self.permissionFallback = permissionFallback
            self.permissionTimeout = permissionTimeout
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
        /// P4: the apps whose record permission the permission agent is asking the user for now.
        var agentAsks: Set<AppID> = []

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
            trust: configuration.trust, permissionPolicy: configuration.permissionPolicy, policy: configuration.policy,
            permissionFallback: configuration.permissionFallback, permissionTimeout: configuration.permissionTimeout)
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

    /// POL3: the role of a stream of other audio became known, or changed, after it started (a
    /// sound server may report it a moment later): its duck level follows from now on, and a duck
    /// in force is carried out again at its role's level.
    public func otherAudioRoleChanged(_ id: String, role: String?) {
        state.withLock { state in
            guard let status = state.engine.deviceStatus.otherAudio.first(where: { $0.audio.id == id }),
                state.otherAudioRoles[id] != role
            else { return }
            state.otherAudioRoles[id] = role
            deliver([.otherAudio(id: id, gain: status.gain, muted: status.isMuted)], &state)
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
