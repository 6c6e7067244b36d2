import AudioSessionModel
import AudioSessionWire

#if canImport(Glibc)
import Glibc
#endif

/// T1: who may control, who may watch what, and whose word an app's capabilities and state
/// are (docs/trust-and-limits.md). Reloadable: the daemon hands a new one to
/// `Arbiter.reload(_:)` on SIGHUP; requests after that are judged by it.
public struct TrustPolicy: Sendable, Equatable {
    /// T1's two modes.
    public enum Mode: String, Sendable, CaseIterable {
        /// One user's daemon: apps declare their capabilities and app state; every connection of
        /// the daemon's uid (and root) may control.
        case user
        /// One daemon for the device: controllers and monitors only from configured uids or
        /// groups (and root); capabilities from app manifests; app state only from a controller.
        case system
    }

    public var mode: Mode
    /// System mode: who may connect as a controller (root always may).
    public var controllers: PeerSet
    /// System mode: who may connect as a monitor and see every app (controllers and root too).
    public var monitors: PeerSet
    /// System mode: each app's capabilities, by app id; an app without one has none.
    public var manifests: [AppID: AppManifest]
    /// System mode: the state an app starts in when it connects, until a controller moves it.
    public var appStartState: AppState
    /// System mode, POL5: the media roles whose streams the device policy may make a system
    /// session (a call or an alarm); a stream of another role stays other audio whatever the
    /// table says. Role phone by default (I4's built-in rule). As `DevicePolicy.role(_:)` spells them.
    public var systemSessionRoles: Set<String> = ["phone"]

    /// POL5: whether a stream of `role` may begin a system session under this trust.
    public func allowsSystemSession(forRole role: String?) -> Bool {
        mode == .user || role.map { systemSessionRoles.contains(DevicePolicy.role($0)) } == true
    }

    /// The user mode (the default).
    public static let user = TrustPolicy(mode: .user)

    public init(
        mode: Mode, controllers: PeerSet = PeerSet(), monitors: PeerSet = PeerSet(),
        manifests: [AppID: AppManifest] = [:], appStartState: AppState = .foreground
    ) {
        self.mode = mode
        self.controllers = controllers
        self.monitors = monitors
        self.manifests = manifests
        self.appStartState = appStartState
    }

    /// T1: whether this peer's controller connection may send system events, answer
    /// permission prompts, set app states and reset: root always; in the user mode the
    /// daemon's own uid, in the system mode a configured controller.
    public func mayControl(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 { return true }
        switch mode {
        case .user: return peer.uid == getuid()
        case .system: return controllers.contains(peer)
        }
    }

    /// Who may control, in words (for errors).
    public var controllerRule: String {
        mode == .user ? "root or the daemon's user" : "root or a configured controller"
    }

    /// T4: whether this peer, reading as a monitor or controller, sees every app (else only its
    /// own uid's).
    public func seesEveryApp(_ peer: PeerCredentials) -> Bool {
        mayControl(peer) || (mode == .system && monitors.contains(peer))
    }

    /// T1: why this peer may not connect in this role at all, or `nil` when it may. In the user
    /// mode anyone who reaches the socket may; in the system mode controllers and monitors must
    /// be configured, and an app may declare only what its manifest grants.
    public func refusal(of role: ClientRole, from peer: PeerCredentials) -> SessionError? {
        guard mode == .system else { return nil }
        switch role {
        case .controller where !mayControl(peer):
            return SessionError(
                .missingEntitlement,
                "this daemon runs in the system trust mode: uid \(peer.uid) is not a configured controller (trust.controllers)")
        case .monitor where !seesEveryApp(peer):
            return SessionError(
                .missingEntitlement,
                "this daemon runs in the system trust mode: uid \(peer.uid) is not a configured monitor (trust.monitors)")
        case .app(let app, let declared):
            let manifest = manifests[app]
            let granted = manifest?.capabilities ?? []
            let beyond = declared.subtracting(granted)
            guard !beyond.isEmpty else { return nil }
            let source = manifest.map { "its manifest \($0.source) grants \($0.capabilities.names)" } ?? "it has no manifest"
            return SessionError(
                .missingEntitlement, "app \(app) declares \(beyond.names), which the device does not grant it: \(source)")
        default:
            return nil
        }
    }
}

/// Uids and groups (T1): a peer is in the set when its uid is listed or its primary or one of
/// its supplementary groups is.
public struct PeerSet: Sendable, Equatable {
    public var uids: Set<UInt32>
    public var groups: Set<UInt32>

    public init(uids: Set<UInt32> = [], groups: Set<UInt32> = []) {
        self.uids = uids
        self.groups = groups
    }

    public func contains(_ peer: PeerCredentials) -> Bool {
        uids.contains(peer.uid) || groups.contains(peer.gid) || peer.groups.contains { groups.contains($0) }
    }
}

/// T1: what the device grants one app, read from a root-owned manifest file.
public struct AppManifest: Sendable, Equatable {
    public var capabilities: AppCapabilities
    /// Where it was read (for logs and errors).
    public var source: String

    public init(capabilities: AppCapabilities, source: String) {
        self.capabilities = capabilities
        self.source = source
    }
}
