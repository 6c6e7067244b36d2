/// The device state that survives a restart of the daemon (SPEC P1, HW7): what the daemon
/// persists in its state directory and gives back to a new engine.
public struct DeviceSettings: Hashable, Sendable {
    /// P1: each app's record permission; apps not listed are undetermined.
    public var recordPermissions: [AppID: RecordPermission]
    /// HW7: the output volume, 0…1.
    public var outputVolume: Double

    public init(recordPermissions: [AppID: RecordPermission] = [:], outputVolume: Double = 1) {
        self.recordPermissions = recordPermissions
        self.outputVolume = outputVolume
    }
}
