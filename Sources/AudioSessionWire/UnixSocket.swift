#if canImport(Glibc)
import Glibc
#endif

/// Unix-socket plumbing shared by the daemon's path checks and the client.
public enum UnixSocket {
    /// Opens a stream socket and connects it to `path`.
    /// - Returns: the descriptor, or the `errno` of the failing call (ENAMETOOLONG for a path
    ///   that does not fit `sun_path`).
    public static func connect(to path: String) -> Result<Int32, Errno> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return .failure(Errno(ENAMETOOLONG)) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let failure = Errno(errno)
            close(fd)
            return .failure(failure)
        }
        return .success(fd)
    }

    /// An `errno` value with its text.
    public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(_ rawValue: Int32) { self.rawValue = rawValue }
        public var description: String { String(cString: strerror(rawValue)) }
    }
}
