import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Checks and prepares the place where the daemon listens.
public enum SocketPath {
    /// Makes the socket's directory (mode 0700; 0755 when `shared`) and clears a stale socket file.
    /// - Parameter shared: T1's system mode: every user's apps connect, and the trust policy
    ///   decides what each may do; the directory must still be this user's (or root's) and
    ///   closed to writes by anyone else.
    /// - Throws: `SocketPathError` when the directory is not private to this user, when a
    ///   live daemon already listens on the path, or when something other than a socket is there.
    public static func prepare(_ path: String, shared: Bool = false) throws(SocketPathError) {
        guard path.utf8.count < 108 else {
            throw SocketPathError("\(path) is longer than a Unix socket path may be (107 bytes)")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        try prepareDirectory(directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory, shared: shared)
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketPathError("\(path) exists and is not a socket; remove it or choose another --socket")
        }
        if isListening(path) {
            throw SocketPathError(
                "another audiosessiond is already listening on \(path); stop it first or choose another --socket")
        }
        guard unlink(path) == 0 else {
            throw SocketPathError("cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The directory must exist (it is created 0700, or 0755 when `shared`, when missing), belong
    /// to this user (or root, when shared) and be closed to group and others (to their writes,
    /// when shared), so no other user can replace the socket, and unless shared none can reach it.
    static func prepareDirectory(_ directory: String, shared: Bool) throws(SocketPathError) {
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT else {
                throw SocketPathError("cannot inspect \(directory): \(String(cString: strerror(errno)))")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: shared ? 0o755 : 0o700])
            } catch {
                throw SocketPathError("cannot create the socket directory \(directory): \(error)")
            }
            guard stat(directory, &info) == 0 else { throw SocketPathError("cannot inspect \(directory)") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SocketPathError("\(directory) is not a directory") }
        guard info.st_uid == getuid() || (shared && info.st_uid == 0) else {
            throw SocketPathError(
                "the socket directory \(directory) belongs to uid \(info.st_uid), not to this user (\(getuid()))")
        }
        let mode = info.st_mode & 0o777
        if shared {
            guard mode & 0o022 == 0 else {
                throw SocketPathError(
                    "the socket directory \(directory) has mode \(String(mode, radix: 8)): others may replace the socket (chmod go-w \(directory))"
                )
            }
            return
        }
        guard mode & 0o077 == 0 else {
            throw SocketPathError(
                "the socket directory \(directory) has mode \(String(mode, radix: 8)); it must be 700 (chmod 700 \(directory))")
        }
    }

    /// Whether a server accepts connections on the path.
    public static func isListening(_ path: String) -> Bool {
        guard case .success(let fd) = UnixSocket.connect(to: path) else { return false }
        close(fd)
        return true
    }
}

/// The socket path cannot be used; the message says why and what to do.
public struct SocketPathError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
