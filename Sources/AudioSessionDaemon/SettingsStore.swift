import AudioSessionModel
import AudioSessionRuntime
import Dispatch
import FoundationEssentials  // JSON and files without the rest of Foundation (daemon RSS)
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's state directory: record permissions (P1) and the output volume (HW7) in
/// `state.json`, replaced atomically (write a temporary file, fsync, rename, fsync the
/// directory), so a kill -9 at any moment leaves either the old or the new file, whole.
/// (The runtime sees it as `SettingsPersistence`; JSON and files stay on the daemon's side, so
/// the client and the C library need no FoundationEssentials: issue 31.)
public struct SettingsStore: SettingsPersistence {
    public let directory: String
    public var file: String { directory + "/state.json" }
    private var temporaryFile: String { directory + "/state.json.tmp" }
    /// Writes handed off by `saveInBackground`, shared by every copy of this store.
    private let background = BackgroundWrites()

    /// Opens (creating with mode 0700 if needed) a state directory. It is checked like the
    /// socket's directory: a real directory (not a symbolic link), owned by the daemon's user,
    /// with no access for group or others; `state.json`, if there, is a regular file of that user.
    /// - Throws: `StoreError` if the directory cannot be created or fails a check (named).
    public init(directory: String) throws(StoreError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError("cannot create the state directory \(directory): \(error)")
        }
        try Self.check(directory, isDirectory: true)
        try Self.check(file, isDirectory: false)
        unlink(temporaryFile)  // a write interrupted before its rename: the old file is intact
    }

    /// A state directory or file that anyone but the daemon's user could have made or changed
    /// is refused with what was found (the file may be missing).
    private static func check(_ path: String, isDirectory: Bool) throws(StoreError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if !isDirectory, errno == ENOENT { return }
            throw systemError("lstat \(path)")
        }
        let me = geteuid()
        let kind = info.st_mode & S_IFMT
        let mode = String(info.st_mode & 0o7777, radix: 8)
        let expected = isDirectory ? "a directory owned by uid \(me) with mode 0700" : "a regular file owned by uid \(me)"
        if kind == S_IFLNK { throw StoreError("\(path) must be \(expected), not a symbolic link") }
        guard kind == (isDirectory ? S_IFDIR : S_IFREG), info.st_uid == me, !isDirectory || info.st_mode & 0o077 == 0 else {
            throw StoreError("\(path) must be \(expected); it is owned by uid \(info.st_uid) with mode 0\(mode)")
        }
    }

    /// The saved settings; defaults when nothing was saved yet.
    /// - Throws: `StoreError` naming the file and the fault when it is not a valid store.
    public func load() throws(StoreError) -> DeviceSettings { try loadState().settings }

    /// The saved settings and the uid each app id holding a record permission belongs to.
    /// - Throws: `StoreError` naming the file and the fault when it is not a valid store.
    public func loadState() throws(StoreError) -> (settings: DeviceSettings, owners: [AppID: UInt32]) {
        waitUntilSaved()
        guard let data = FileManager.default.contents(atPath: file) else { return (DeviceSettings(), [:]) }
        let saved: SavedState
        do {
            saved = try JSONDecoder().decode(SavedState.self, from: data)
        } catch {
            throw StoreError("\(file) is not a valid state file (\(error)); move it away to start afresh")
        }
        guard (1...SavedState.currentVersion).contains(saved.version) else {
            throw StoreError("\(file) has version \(saved.version); this daemon reads versions 1 to \(SavedState.currentVersion)")
        }
        var permissions: [AppID: RecordPermission] = [:]
        for (app, answer) in saved.recordPermissions {
            switch answer {
            case "granted": permissions[AppID(app)] = .granted
            case "denied": permissions[AppID(app)] = .denied
            default: throw StoreError("\(file): the permission of \(app) is \"\(answer)\", not granted or denied")
            }
        }
        let settings = DeviceSettings(recordPermissions: permissions, outputVolume: saved.outputVolume)
        do { try settings.validate() } catch { throw StoreError("\(file): \(error.message)") }
        var owners: [AppID: UInt32] = [:]
        for (app, uid) in saved.owners ?? [:] { owners[AppID(app)] = uid }
        return (settings, owners)
    }

    /// Replaces the saved settings (and the owners of app ids with a permission) atomically.
    /// - Throws: `StoreError` with the failing system call; the old file is then still in place.
    /// Saves on a queue of the store's own, so the caller (the arbiter, under its lock) never
    /// waits for a disk: only the latest settings are written, in order; `loadState` and
    /// `waitUntilSaved` wait for what is pending.
    public func saveInBackground(
        _ settings: DeviceSettings, owners: [AppID: UInt32], onError: @escaping @Sendable (StoreError) -> Void
    ) {
        let store = self
        background.enqueue((settings, owners)) { latest in
            do throws(StoreError) { try store.save(latest.0, owners: latest.1) } catch { onError(error) }
        }
    }

    /// Returns once every save handed to `saveInBackground` so far is on disk.
    public func waitUntilSaved() { background.wait() }

    public func save(_ settings: DeviceSettings, owners: [AppID: UInt32] = [:]) throws(StoreError) {
        var permissions: [String: String] = [:]
        for (app, permission) in settings.recordPermissions where permission != .undetermined {
            permissions[app.rawValue] = permission == .granted ? "granted" : "denied"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes: Data
        do {
            bytes = try encoder.encode(
                SavedState(
                    version: SavedState.currentVersion, outputVolume: settings.outputVolume, recordPermissions: permissions,
                    owners: Dictionary(uniqueKeysWithValues: owners.map { ($0.key.rawValue, $0.value) })))
        } catch {
            throw StoreError("cannot encode the state: \(error)")
        }
        try writeAtomically(Array(bytes))
    }

    private func writeAtomically(_ bytes: [UInt8]) throws(StoreError) {
        // Never through a link, and only a file this write creates.
        unlink(temporaryFile)
        let fd = open(temporaryFile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw systemError("open \(temporaryFile)") }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let failure = systemError("write \(temporaryFile)")
                close(fd)
                throw failure
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let failure = systemError("fsync \(temporaryFile)")
            close(fd)
            throw failure
        }
        close(fd)
        guard rename(temporaryFile, file) == 0 else { throw systemError("rename to \(file)") }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)  // the rename itself survives a power cut
            close(directoryFD)
        }
    }
}

/// `state.json`, version 2 (version 1 had no owners; it is read as such).
private struct SavedState: Codable {
    static let currentVersion = 2
    var version: Int
    var outputVolume: Double
    /// App id → "granted" or "denied".
    var recordPermissions: [String: String]
    /// App id → the uid it belongs to (ids holding a record permission).
    var owners: [String: UInt32]?
}

/// One serial queue of writes where only the latest pending value matters.
final class BackgroundWrites: Sendable {
    private let queue = DispatchQueue(label: "audiosession.settings-store")
    private let pending = Mutex<(DeviceSettings, [AppID: UInt32])?>(nil)

    func enqueue(
        _ value: (DeviceSettings, [AppID: UInt32]), write: @escaping @Sendable ((DeviceSettings, [AppID: UInt32])) -> Void
    ) {
        let scheduled = pending.withLock { pending -> Bool in
            defer { pending = value }
            return pending != nil
        }
        guard !scheduled else { return }  // the queued write will take the newest value
        queue.async { [self] in
            guard
                let latest = pending.withLock({ pending in
                    defer { pending = nil }; return pending
                })
            else { return }
            write(latest)
        }
    }

    func wait() { queue.sync {} }
}

/// A failed system call, with errno's text.
private func systemError(_ call: String) -> StoreError {
    StoreError("\(call): \(String(cString: strerror(errno)))")
}
