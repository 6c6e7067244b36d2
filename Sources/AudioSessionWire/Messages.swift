import AudioSessionModel

/// The protocol version this build speaks; the handshake refuses any other (docs/protocol.md).
public enum ProtocolVersion {
    public static let current: UInt16 = 10
}

/// Who a connection is. Declared once, in the hello; the daemon checks it against the
/// peer's credentials (SO_PEERCRED).
public enum ClientRole: Hashable, Sendable {
    /// An app with its id and capabilities: it can address only its own session.
    case app(AppID, AppCapabilities)
    /// A system controller: system events, permission answers, the device view and all
    /// events. Accepted only from root or the daemon's own user.
    case controller
    /// A read-only watcher: the device view and all events (`audiosession status`, `events`).
    case monitor
}

/// What a client sends first.
public struct Hello: Hashable, Sendable {
    public var version: UInt16
    public var role: ClientRole
    /// §16: an app connection that speaks for another program's player (the players bridge).
    public var player: PlayerClaim?

    public init(version: UInt16 = ProtocolVersion.current, role: ClientRole, player: PlayerClaim? = nil) {
        self.version = version
        self.role = role
        self.player = player
    }
}

/// PL1, PL7: the player an app connection speaks for: its process, whose sound-server streams
/// (and those of its descendants) are the app's own, and its MPRIS identity for status. The
/// daemon checks that the process belongs to the connection's uid.
public struct PlayerClaim: Hashable, Sendable {
    public var processID: Int32
    public var identity: String
    /// The last part of its MPRIS bus name (`vlc`, `chromium.instance42`): what the device
    /// policy's `bus-name:` matches (POL1).
    public var busName: String

    public init(processID: Int32, identity: String, busName: String = "") {
        self.processID = processID
        self.identity = identity
        self.busName = busName
    }
}

/// A request; each carries an id its reply repeats.
public enum Request: Hashable, Sendable {
    /// An app's call on its own session (apps only).
    case call(AppCall)
    /// The app's own session status (apps only).
    case status
    /// Replied to after every event sent before it on this connection: a delivery barrier.
    case ping
    /// A system event (controllers only; others get `ent?`).
    case system(SystemEvent)
    /// The user's answer to an app's record-permission prompt (controllers only).
    case answerPermission(AppID, granted: Bool)
    /// The device, its ports and every connected app (controllers and monitors).
    case deviceStatus
    /// Every notification to every app from now on, as `observed` events (controllers and monitors).
    case subscribe
    /// A new device of this profile and duck level, for scenario runs; refused while apps are
    /// connected (controllers only).
    case reset(DeviceProfile, duckLevel: Double)
    /// T1: the device's shell moves an app to the foreground or the background (controllers
    /// only; in the system trust mode the only way an app's state changes).
    case setAppState(AppID, AppState)
}

/// The reply to one request.
public enum Reply: Hashable, Sendable {
    case done
    case failed(SessionError)
    case status(SessionStatus)
    case device(DeviceSnapshot)
}

/// Something the daemon tells a client without being asked.
public enum ServerEvent: Hashable, Sendable {
    /// A notification to this app (SPEC §13). `sequence` orders notifications across all apps.
    case notification(sequence: UInt64, SessionNotification)
    /// D4: the app's effective output gain changed.
    case outputGain(Double)
    /// A5, I1, IO3: the system stopped the app's I/O.
    case stopIO(output: Bool, input: Bool)
    /// To subscribers: a notification to `app`, at `time` (nanoseconds since 1970).
    case observed(sequence: UInt64, time: UInt64, app: AppID, SessionNotification)
    /// To controllers: show the record-permission prompt for the app (P2).
    case permissionPrompt(AppID)
}

/// Every message a client sends.
public enum ClientMessage: Hashable, Sendable {
    case hello(Hello)
    case request(id: UInt32, Request)
}

/// Every message the daemon sends.
public enum ServerMessage: Hashable, Sendable {
    /// The handshake succeeded.
    case welcome(version: UInt16, daemonPID: Int32)
    case reply(id: UInt32, Reply)
    case event(ServerEvent)
    /// The daemon closes the connection after this: a refused hello or a malformed frame.
    case closing(SessionError)
}

/// What `audiosession status` shows: the device and every connected app.
public struct DeviceSnapshot: Hashable, Sendable {
    public var device: DeviceStatus
    public var apps: [AppSnapshot]
    /// The engine's broken invariants (`Engine.invariantViolations`); empty when healthy.
    public var violations: [String]
    /// Apps left out so that the reply fits one frame (`fittingOneFrame()`).
    public var omittedApps: Int
    /// MS3: since when media services are lost (the sound server went away), in nanoseconds
    /// since 1970; nil while they stand.
    public var mediaServicesLostSince: UInt64?
    /// P4: who answers a record-permission request no system controller can.
    public var permissions = PermissionAnswering()

    public init(
        device: DeviceStatus, apps: [AppSnapshot], violations: [String] = [], omittedApps: Int = 0,
        mediaServicesLostSince: UInt64? = nil, permissions: PermissionAnswering = PermissionAnswering()
    ) {
        self.device = device
        self.apps = apps
        self.violations = violations
        self.omittedApps = omittedApps
        self.mediaServicesLostSince = mediaServicesLostSince
        self.permissions = permissions
    }

    /// The snapshot cut to fit one frame with room to spare: apps past the budget are left out
    /// and counted in `omittedApps`, and at most 100 violations are listed, so the device status
    /// of a daemon with tens of thousands of apps stays readable.
    public func fittingOneFrame(budget: Int = Frame.maximumSize - 65_536) -> DeviceSnapshot {
        var writer = WireWriter()
        writer.write(device)
        let kept = Array(violations.prefix(100))
        writer.write(kept) { $0.write($1) }
        var used = writer.bytes.count + 16
        var fitting: [AppSnapshot] = []
        fitting.reserveCapacity(apps.count)
        for app in apps {
            var one = WireWriter()
            one.write(app)
            used += one.bytes.count
            guard used <= budget else { break }
            fitting.append(app)
        }
        return DeviceSnapshot(
            device: device, apps: fitting, violations: kept, omittedApps: omittedApps + apps.count - fitting.count,
            mediaServicesLostSince: mediaServicesLostSince, permissions: permissions)
    }
}

/// P4: how a record-permission request is answered while no system controller is connected.
public struct PermissionAnswering: Hashable, Sendable {
    /// The answer given when nobody can be asked or nobody answers; nil: the request waits.
    public var fallback: Bool?
    /// How long the desktop notification waits for the user, in milliseconds (0: no notification).
    public var timeoutMs: UInt32
    /// The apps whose question the desktop notification is asking now.
    public var asking: [String]

    public init(fallback: Bool? = nil, timeoutMs: UInt32 = 0, asking: [String] = []) {
        self.fallback = fallback
        self.timeoutMs = timeoutMs
        self.asking = asking
    }
}

/// What an app is to the daemon (POL4).
public enum AppKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A program that uses the library and declares its own intent.
    case client
    /// Another program's MPRIS player, held by the players bridge (§16).
    case player
    /// A sound-server stream whose session the daemon hosts (POL2 `session:`).
    case stream
    /// A program in a call whose session the daemon hosts (§18 CL3).
    case call

    public var description: String {
        switch self {
        case .client: "client"
        case .player: "player"
        case .stream: "stream"
        case .call: "call"
        }
    }
}

/// One connected app in a `DeviceSnapshot`.
public struct AppSnapshot: Hashable, Sendable {
    public var app: AppID
    /// The peer's process id and user id (SO_PEERCRED); 0 in-process.
    public var pid: Int32
    public var uid: UInt32
    public var category: Category
    public var mode: Mode
    public var options: CategoryOptions
    public var isActive: Bool
    public var isInterrupted: Bool
    public var isOutputRunning: Bool
    public var isInputRunning: Bool
    /// D4.
    public var outputGain: Double
    public var route: Route
    /// PL7: the MPRIS identity of the player the app is; CL7: the program's name for a call
    /// (nil for a client of its own).
    public var player: String?
    /// POL4: a client, a player or a stream.
    public var kind: AppKind
    /// POL4: the device policy's entry that gave a player or stream its intent (`policy.players[1]
    /// (FILE:LINE)`, `default: playback (PL1)`); nil for a client, which declares its own.
    public var policy: String?
    /// CL7: a call's streams as the sound server numbers them (`playback 12`, `capture 7`).
    public var streams: [String]

    public init(
        app: AppID, pid: Int32, uid: UInt32, status: SessionStatus, player: String? = nil, kind: AppKind = .client,
        policy: String? = nil, streams: [String] = []
    ) {
        self.streams = streams
        self.player = player
        self.kind = kind
        self.policy = policy
        self.app = app
        self.pid = pid
        self.uid = uid
        self.category = status.category
        self.mode = status.mode
        self.options = status.categoryOptions
        self.isActive = status.isActive
        self.isInterrupted = status.isInterrupted
        self.isOutputRunning = status.isOutputRunning
        self.isInputRunning = status.isInputRunning
        self.outputGain = status.outputGain
        self.route = status.currentRoute
    }

    public init(
        app: AppID, pid: Int32, uid: UInt32, category: Category, mode: Mode, options: CategoryOptions,
        isActive: Bool, isInterrupted: Bool, isOutputRunning: Bool, isInputRunning: Bool, outputGain: Double,
        route: Route, player: String? = nil, kind: AppKind = .client, policy: String? = nil, streams: [String] = []
    ) {
        self.streams = streams
        self.player = player
        self.kind = kind
        self.policy = policy
        self.app = app
        self.pid = pid
        self.uid = uid
        self.category = category
        self.mode = mode
        self.options = options
        self.isActive = isActive
        self.isInterrupted = isInterrupted
        self.isOutputRunning = isOutputRunning
        self.isInputRunning = isInputRunning
        self.outputGain = outputGain
        self.route = route
    }
}
