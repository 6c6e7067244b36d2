#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connection: the kernel's word (SO_PEERCRED), not the client's.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Its supplementary groups (SO_PEERGROUPS), for T1's configured groups.
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// A client in this very process (the embedded transport).
    public static var thisProcess: PeerCredentials {
        PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
    }

    public var description: String { "pid \(pid) uid \(uid)" }
}
