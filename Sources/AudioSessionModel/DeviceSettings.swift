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

extension DeviceSettings {
    /// Settings that may be restored: a volume within 0…1 (HW7) and permissions that were
    /// answered (P1). Checked by the engine's `restore` and by a store reading its file.
    /// - Throws: `SessionError` (`badParam`) naming the rule and the value.
    public func validate() throws(SessionError) {
        guard outputVolume >= 0, outputVolume <= 1 else {
            throw SessionError(.badParam, "HW7: a saved output volume must be within 0…1, not \(outputVolume)")
        }
        if let app = recordPermissions.first(where: { $0.value == .undetermined })?.key {
            throw SessionError(.badParam, "P1: a saved permission must be granted or denied, not undetermined (\(app))")
        }
    }
}
