import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Testing

@testable import PulseBackend

/// The one ownership answer (`PulseBackend.owner(of:)`, CL4's order), row by row — the rows a
/// stream's own report decides, a connected player's and a hosted stream's, and the order between
/// them; the call row, which needs a program recording and playing for `after-ms`, is tested on
/// real servers (CallTests: a call's streams are never muted as other audio, CL4).
@Suite("Whose a stream is (OA4, SO1, SO6, CL4)")
struct StreamOwnerTests {
    static func stream(_ properties: [String: String], client: UInt32? = 7, isRecord: Bool = false) -> PulseStream {
        var stream = PulseStream(
            index: 3, device: 0, channels: 2, properties: properties, isMuted: false, volume: 65_536, isRecord: isRecord)
        stream.client = client
        return stream
    }

    static func owner(_ stream: PulseStream, _ arbiter: Arbiter? = nil, hosted: String? = nil) -> PulseBackend.StreamOwner {
        let arbiter = arbiter ?? (try! Arbiter(configuration: .init(), logger: RealServerTests.quiet))
        let backend = PulseBackend(arbiter: arbiter, server: "unix:/nonexistent/native", logger: RealServerTests.quiet)
        defer { backend.close() }
        if let hosted { backend.state.withLock { $0.hostedStreams[stream.index] = AppID(hosted) } }
        return backend.owner(of: stream)
    }

    /// An arbiter with a player app connected (by a bridge, pid 99) for this test process.
    static func withPlayer(identity: String = "VLC media player", busName: String = "vlc") throws -> Arbiter {
        let arbiter = try Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let bridge = PeerCredentials(pid: 99, uid: getuid(), gid: getgid())
        let claim = PlayerClaim(processID: getpid(), identity: identity, busName: busName)
        _ = try arbiter.connect(Hello(role: .app("mpris.vlc", []), player: claim), peer: bridge, sink: DroppingSink()).get()
        return arbiter
    }

    @Test("row 1: a stream carrying an app's id is that app's, even one a module plays")
    func client() {
        #expect(Self.owner(Self.stream(["audiosession.app": "music"])) == .client("music"))
        #expect(Self.owner(Self.stream(["audiosession.app": "music"], client: nil)) == .client("music"))
    }

    @Test(
        "row 2, OA4: a stream the server plays itself (a loopback, the echo canceller's to its master) is nobody's, never other audio"
    )
    func serversOwn() {
        let loopback = ["media.role": "abstract", "media.name": "Loopback from Monitor of Null Output"]
        #expect(Self.owner(Self.stream(loopback, client: nil)) == .nobody)
        #expect(Self.owner(Self.stream(loopback, client: nil, isRecord: true)) == .nobody)
    }

    @Test("row 6, OA4: a program's playback that is nobody else's is other audio; its capture is nobody's")
    func otherAudio() {
        let program = ["application.name": "paplay", "application.process.id": "\(getpid())"]
        #expect(Self.owner(Self.stream(program)) == .otherAudio)
        #expect(Self.owner(Self.stream(program, isRecord: true)) == .nobody)
    }

    @Test("SO6: a system-sound tag from a process that is no connected app's is ignored: other audio")
    func systemSoundTagIgnored() {
        let tagged = ["audiosession.system-sound": "music", "application.process.id": "\(getpid())"]
        #expect(Self.owner(Self.stream(tagged)) == .otherAudio)
    }

    @Test("row 4, PL1: a stream of a connected player's process is the player's; row 1 comes first (an app's id on it wins)")
    func player() throws {
        let arbiter = try Self.withPlayer()
        let own = ["application.name": "VLC media player", "application.process.id": "\(getpid())"]
        #expect(Self.owner(Self.stream(own), arbiter) == .player("mpris.vlc"))
        #expect(Self.owner(Self.stream(own.merging(["audiosession.app": "music"]) { $1 }), arbiter) == .client("music"))
        #expect(Self.owner(Self.stream(own)) == .otherAudio, "without the player connected: other audio")
    }

    @Test(
        "row 4, PL1 revision 6: a proxy's player (mpDris2 for mpd) owns a stream named as its identity or bus name while none is of its own process"
    )
    func proxiedPlayer() throws {
        let arbiter = try Self.withPlayer(identity: "Music Player Daemon", busName: "mpd")
        let mpd = ["application.name": "mpd", "application.process.binary": "mpd"]
        #expect(Self.owner(Self.stream(mpd), arbiter) == .player("mpris.vlc"))
        #expect(Self.owner(Self.stream(["application.name": "paplay"]), arbiter) == .otherAudio, "another program's")
    }

    @Test("row 5, POL2: a stream the policy hosts a session for is that session's; its capture is nobody's; row 4 comes first")
    func hosted() throws {
        let radio = ["application.name": "radio", "media.role": "music"]
        #expect(Self.owner(Self.stream(radio), hosted: "stream.music.radio") == .hosted("stream.music.radio"))
        #expect(Self.owner(Self.stream(radio, isRecord: true), hosted: "stream.music.radio") == .nobody)
        let own = ["application.name": "VLC media player", "application.process.id": "\(getpid())"]
        #expect(Self.owner(Self.stream(own), try Self.withPlayer(), hosted: "stream.music.vlc") == .player("mpris.vlc"))
    }
}
