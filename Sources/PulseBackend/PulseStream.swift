#if canImport(Glibc)
import Glibc
#endif

/// A playback stream (a sink input) or record stream (a source output) of the sound server.
public struct PulseStream: Hashable, Sendable {
    /// The property the client library sets on its own streams (its app id); a stream without
    /// it belongs to an app that does not use us: *other audio* (OA1, OA2).
    public static let appProperty = "audiosession.app"
    /// SO6: an app's system sound carries its app id here instead (left as it is by the backend).
    public static let systemSoundProperty = "audiosession.system-sound"

    public var index: UInt32
    /// The index of the sink it plays to, or of the source it records from.
    public var device: UInt32
    /// A source output: the server's indexes of these and of sink inputs are separate.
    public var isRecord: Bool
    public var channels: UInt8
    /// `media.role`, `application.name`, `application.process.id`, `application.process.user`, `application.process.binary`,
    /// `audiosession.app`.
    public var properties: [String: String]
    public var isMuted: Bool
    /// The first channel's volume (`PA_VOLUME_NORM` = 65536 is 100%); nil while the server does
    /// not know it yet (PipeWire reports no channels before the stream is negotiated).
    public var volume: UInt32?
    /// The stream volumes this connection had written when the server was asked for this report
    /// (`PulseServer.setVolume(stream:…)`): it reflects every one of them, and no later one.
    public var writesSeen: UInt64 = 0
    /// The server's client the stream is of; nil for a stream a server module plays itself (a
    /// loopback, an echo canceller's or a combined output's stream to its master device).
    public var client: UInt32? = 0

    public init(
        index: UInt32, device: UInt32, channels: UInt8, properties: [String: String], isMuted: Bool, volume: UInt32?,
        isRecord: Bool = false
    ) {
        self.index = index
        self.device = device
        self.isRecord = isRecord
        self.channels = channels
        self.properties = properties
        self.isMuted = isMuted
        self.volume = volume
    }

    /// OA4: a stream the server plays itself between its own devices (a module's: a loopback, a
    /// filter such as the echo canceller feeding its master, a combined output). It carries the
    /// sound of the streams that feed it, each governed as what it is; a loopback is the user's
    /// own setting. Never other audio.
    public var isServersOwn: Bool { client == nil }

    /// A stream of an app that does not use us.
    public var isForeign: Bool { properties[Self.appProperty] == nil }

    /// The app whose session governs this stream: ours carry its id.
    public var app: String? { properties[Self.appProperty] }

    /// The uid of the user whose process plays it (`application.process.user`, as the server
    /// reports it), `nil` when not said or not a user of this system (T4).
    public var uid: UInt32? {
        guard let user = properties["application.process.user"], !user.isEmpty else { return nil }
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(user, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        return entry.pw_uid
    }
}
