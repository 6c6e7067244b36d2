#if canImport(Glibc)
import Glibc
#endif

/// systemd socket activation (sd_listen_fds(3)): systemd creates and owns the socket (root's,
/// with the unit's mode), starts the daemon when the first client connects and hands the
/// listening socket over as descriptor 3, with LISTEN_PID set to the daemon's pid and
/// LISTEN_FDS to 1. The daemon then serves that socket instead of making one.
public enum SystemdActivation {
    /// The first descriptor systemd passes.
    static let firstDescriptor: CInt = 3

    /// The listening Unix socket systemd passed to this process, if any; the variables are
    /// removed so that no child process takes them for its own.
    public static func inheritedSocket() -> CInt? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
            let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1
        else { return nil }
        let fd = firstDescriptor
        var type: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == CInt(SOCK_STREAM.rawValue) else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// The path a Unix socket is bound to (for logs), or `nil`.
    public static func path(of fd: CInt) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        return withUnsafeBytes(of: address.sun_path) { bytes in
            let text = bytes.prefix { $0 != 0 }
            return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
        }
    }
}
