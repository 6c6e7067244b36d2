#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens unless told otherwise.
public enum SocketLocation {
    /// `$XDG_RUNTIME_DIR/audiosession/socket`, or `/tmp/audiosession-UID/socket` without
    /// `XDG_RUNTIME_DIR`.
    public static var defaultPath: String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return runtime + "/audiosession/socket"
        }
        return "/tmp/audiosession-\(getuid())/socket"
    }

    /// The device-wide daemon's socket (the system service, made by systemd).
    public static let systemPath = "/run/audiosession/socket"

    /// Where a client looks: the user's own daemon (`defaultPath`) when its socket is there, else
    /// the device-wide daemon's when that one is, else `defaultPath` (for the error message).
    public static var clientPath: String {
        let own = defaultPath
        if access(own, F_OK) != 0, access(systemPath, F_OK) == 0 { return systemPath }
        return own
    }

    /// The environment variable that points clients at a daemon (`AudioSession.shared`).
    public static let environmentVariable = "AUDIOSESSION_SOCKET"
}
