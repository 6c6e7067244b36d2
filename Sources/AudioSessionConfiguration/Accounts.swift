#if canImport(Glibc)
import Glibc
#endif

/// Users and groups by name or number, as the configuration names them.
enum Accounts {
    /// A user's uid: a number as is, else the name looked up in the system's user database.
    static func uid(of text: String) -> UInt32? {
        if let number = UInt32(text) { return number }
        guard let entry = getpwnam(text) else { return nil }
        return entry.pointee.pw_uid
    }

    /// A group's gid: a number as is, else the name looked up in the system's group database.
    static func gid(of text: String) -> UInt32? {
        if let number = UInt32(text) { return number }
        guard let entry = getgrnam(text) else { return nil }
        return entry.pointee.gr_gid
    }
}

/// Files the daemon takes its rules from: they must not be changeable by a user it does not
/// trust (T1: manifests are root's; the configuration root's or the daemon's own).
enum TrustedFile {
    /// A regular file (or a directory), not a symbolic link, owned by root (or, unless
    /// `rootOnly`, the daemon's user), not writable by group or others.
    static func check(_ path: String, what: String, directory: Bool = false, rootOnly: Bool = false) throws(ConfigurationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw ConfigurationError("cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK { throw ConfigurationError("\(what) \(path) is a symbolic link; give the real path") }
        guard kind == (directory ? S_IFDIR : S_IFREG) else {
            throw ConfigurationError("\(what) \(path) is not a \(directory ? "directory" : "regular file")")
        }
        let owners: [UInt32] = rootOnly ? [0] : [0, getuid()]
        guard owners.contains(info.st_uid) else {
            throw ConfigurationError(
                "\(what) \(path) belongs to uid \(info.st_uid); it must belong to \(rootOnly ? "root" : "root or the daemon's user (uid \(getuid()))")"
            )
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw ConfigurationError(
                "\(what) \(path) has mode \(String(mode, radix: 8)): group or others may change it (chmod go-w \(path))")
        }
    }
}
