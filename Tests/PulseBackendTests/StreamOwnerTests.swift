import AudioSessionRuntime
import Foundation
import Testing

@testable import PulseBackend

/// The one ownership answer (`PulseBackend.owner(of:)`, CL4's order), row by row for the rows a
/// stream's own report decides; the call, player and hosted rows, which need a program in a call,
/// a connected player or a policy, are tested on real servers (CallTests, PlayersBridgeTests,
/// DevicePolicyTests).
@Suite("Whose a stream is (OA4, SO1, SO6, CL4)")
struct StreamOwnerTests {
    static func stream(_ properties: [String: String], client: UInt32? = 7, isRecord: Bool = false) -> PulseStream {
        var stream = PulseStream(
            index: 3, device: 0, channels: 2, properties: properties, isMuted: false, volume: 65_536, isRecord: isRecord)
        stream.client = client
        return stream
    }

    static func owner(_ stream: PulseStream) -> PulseBackend.StreamOwner {
        let arbiter = try! Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: "unix:/nonexistent/native", logger: RealServerTests.quiet)
        defer { backend.close() }
        return backend.owner(of: stream)
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
}
