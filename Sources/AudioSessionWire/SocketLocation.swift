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

    /// The environment variable that points clients at a daemon (`AudioSession.shared`).
    public static let environmentVariable = "AUDIOSESSION_SOCKET"
}
