import AudioSessionModel
import AudioSessionWire

/// T4: whether a field of the device status is a fact about the device, which every reader may
/// read, or names apps or programs of a uid, which a reader of another uid may not.
package enum T4Visibility: Sendable {
    /// Ports, volume, the route, system sessions, flags: the same for every reader.
    case deviceWide
    /// Filtered for a reader that does not see every app (`DeviceStatus.seen(by:ownerOf:)`).
    case filtered
}

extension DeviceStatus {
    /// Every wire field of the device status (`DeviceStatus.wireFieldNames`), classified. A field
    /// added to the wire without a line here fails VisibilityTests, so it cannot leak unnoticed.
    package static let t4Visibility: [String: T4Visibility] = [
        "profile": .deviceWide, "inputs": .deviceWide, "outputs": .deviceWide,
        // The owner's identity is not a device-wide fact; its route is (SPEC T4).
        "routing owner": .filtered, "route": .deviceWide,
        "active apps": .filtered,
        "system sessions": .deviceWide, "output volume": .deviceWide, "locked": .deviceWide,
        "silent switch": .deviceWide, "microphone muted": .deviceWide, "duck level": .deviceWide,
        // A stream whose process is another user's (when the server says whose it is).
        "other audio": .filtered,
        // RT13 (a): the default output the user chose for the whole device.
        "output choice": .deviceWide,
    ]

    /// The status as read by a reader that sees the apps of the uids `sees` accepts (T4): the
    /// routing owner only when it is such an app, only such active apps, and no other audio of a
    /// process of another uid (a stream whose user is unknown is a device-wide fact).
    /// - Parameter ownerOf: the uid an app is connected as (`nil` for none).
    func seen(by sees: (UInt32?) -> Bool, ownerOf: (AppID) -> UInt32?) -> DeviceStatus {
        var status = self
        if let owner = routingOwner, !sees(ownerOf(owner)) { status.routingOwner = nil }
        status.activeApps = activeApps.filter { sees(ownerOf($0)) }
        status.otherAudio = otherAudio.filter { stream in stream.audio.uid.map { sees($0) } ?? true }
        return status
    }
}
