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
        try settings.validate()
        device.outputVolume = settings.outputVolume
        device.recordPermissions = settings.recordPermissions
    }
}
