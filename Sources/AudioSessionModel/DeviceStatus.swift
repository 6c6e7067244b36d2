/// The device as a whole at one moment, as the `audiosession status` command shows it
/// (SPEC §0 device state, §9 ports, RT9 owner).
public struct DeviceStatus: Hashable, Sendable {
    public var profile: DeviceProfile
    /// Connected input ports: built-ins first, then accessories in connection order (RT3).
    public var inputs: [Port]
    /// Connected output ports, in the same order.
    public var outputs: [Port]
    /// RT9: the app whose session owns the route, `nil` when no session is active.
    public var routingOwner: AppID?
    /// RT9, RT10: the routing owner's current route — the device's route, a device-wide fact
    /// (T4) even where the owner's identity is not; empty when no session owns the route.
    public var route: Route
    /// Active app sessions, oldest activation first.
    public var activeApps: [AppID]
    /// I4: active system sessions, in the order they began.
    public var systemSessions: [SystemSessionKind]
    public var outputVolume: Double
    public var isLocked: Bool
    public var silentSwitchOn: Bool
    public var microphoneMuted: Bool
    /// D1.
    public var duckLevel: Double
    /// OA1: streams of programs that do not use us, in the order they started, with the gain
    /// and mute the arbiter applies to each.
    public var otherAudio: [OtherAudioStatus]
    /// RT13 (a): the user's device-wide output choice (on a sound server, its default output),
    /// by UID, also while its port is away; `nil`: none.
    public var outputChoice: String?

    public init(
        profile: DeviceProfile, inputs: [Port] = [], outputs: [Port] = [], routingOwner: AppID? = nil,
        route: Route = Route(), activeApps: [AppID] = [], systemSessions: [SystemSessionKind] = [], outputVolume: Double = 1,
        isLocked: Bool = false, silentSwitchOn: Bool = false, microphoneMuted: Bool = false, duckLevel: Double = 0.2,
        otherAudio: [OtherAudioStatus] = [], outputChoice: String? = nil
    ) {
        self.outputChoice = outputChoice
        self.profile = profile
        self.inputs = inputs
        self.outputs = outputs
        self.routingOwner = routingOwner
        self.route = route
        self.activeApps = activeApps
        self.systemSessions = systemSessions
        self.outputVolume = outputVolume
        self.isLocked = isLocked
        self.silentSwitchOn = silentSwitchOn
        self.microphoneMuted = microphoneMuted
        self.duckLevel = duckLevel
        self.otherAudio = otherAudio
    }
}
