import AudioSessionModel

extension Engine {
    /// The persistent part of the device state (P1, HW7).
    public var settings: DeviceSettings {
        DeviceSettings(recordPermissions: device.recordPermissions, outputVolume: device.outputVolume)
    }

    /// Gives back saved settings, typically to a new engine before any app registers; sends nothing.
    /// - Throws: `SessionError` -50 for a volume outside 0…1 or an undetermined permission
    ///   listed (undetermined is the absence of an answer); nothing changes then.
    public mutating func restore(_ settings: DeviceSettings) throws(SessionError) {
        guard settings.outputVolume >= 0, settings.outputVolume <= 1 else {
            throw SessionError(.badParam, "HW7: a saved output volume must be within 0…1, not \(settings.outputVolume)")
        }
        if let app = settings.recordPermissions.first(where: { $0.value == .undetermined })?.key {
            throw SessionError(.badParam, "P1: a saved permission must be granted or denied, not undetermined (\(app))")
        }
        device.outputVolume = settings.outputVolume
        device.recordPermissions = settings.recordPermissions
    }
}
