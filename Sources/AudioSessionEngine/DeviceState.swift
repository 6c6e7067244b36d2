import AudioSessionModel

/// Device state, kept apart from session state (SPEC §0): it survives a media-services
/// reset (MS2) and, in the daemon, restarts (P1, HW7).
struct DeviceState: Hashable, Sendable {
    let profile: DeviceProfile
    /// Connected ports: built-ins first, then accessories in connection order (RT3 "last in wins").
    var ports: PortTable
    /// §9.1: the number the next accessory gets (0 is the built-ins').
    var nextAccessoryNumber: UInt32 = 1
    var silentSwitchOn = false
    var isLocked = false
    var microphoneMuted = false
    var outputVolume: Double = 1
    var recordPermissions: [AppID: RecordPermission] = [:]
    /// HW6: input gains by input port UID (default 1, forgotten on unplug).
    var inputGains: [String: Double] = [:]
    /// §9.1: for each accessory kind, the last n given in a default UID `<kind>-<n>`.
    var defaultUIDCounters: [String: Int] = [:]
    /// P2: apps whose permission prompt is showing and not yet answered.
    var pendingPermissionPrompts: Set<AppID> = []

    init(profile: DeviceProfile) {
        self.profile = profile
        self.ports = PortTable(builtIns: profile.builtInPorts)
    }

    func recordPermission(of app: AppID) -> RecordPermission {
        recordPermissions[app] ?? .undetermined
    }

    func isConnected(_ uid: String) -> Bool { ports.isConnected(uid) }

    /// HW6: the device has some input port.
    var isInputAvailable: Bool { ports.slots.contains { $0.isInput } }
}

/// A connected port and its direction: an accessory such as a USB interface has one input
/// and one output port with the same type and UID (SPEC §9.1).
struct DevicePort: Hashable, Sendable {
    let port: Port
    let isInput: Bool
}
