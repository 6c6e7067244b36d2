import AudioSessionModel

/// Where the arbiter keeps what outlives the daemon: record permissions (P1), the output volume
/// (HW7) and the owners of app ids holding a permission. The daemon's implementation is
/// `SettingsStore` (a JSON file in a state directory, in the daemon module); an embedded runtime
/// keeps nothing.
public protocol SettingsPersistence: Sendable {
    /// Where the settings live, for messages.
    var directory: String { get }
    /// The file the settings are read from, for messages.
    var file: String { get }
    /// The saved settings and the uid each app id holding a record permission belongs to;
    /// defaults when nothing was saved yet.
    /// - Throws: `StoreError` naming the file and the fault when it is not a valid store.
    func loadState() throws(StoreError) -> (settings: DeviceSettings, owners: [AppID: UInt32])
    /// Saves without making the caller (the arbiter, under its lock) wait for a disk; only the
    /// latest settings need to be written.
    func saveInBackground(
        _ settings: DeviceSettings, owners: [AppID: UInt32], onError: @escaping @Sendable (StoreError) -> Void)
    /// Returns once every save handed to `saveInBackground` so far is done.
    func waitUntilSaved()
}

/// The state directory cannot be read or written; the message names the file and the fault.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
