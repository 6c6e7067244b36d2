import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Testing

@testable import PulseBackend

/// §16 PL1, PL3 on real servers: the streams of a player's process are its app's own, not other
/// audio — its own non-mixable playback does not mute it, an interruption does until its end —
/// and they are other audio again when the player's app departs.
@Suite("A player's streams (PL1, PL3)", .serialized)
struct PlayerStreamTests {
    @Test(
        "PL1, PL3: a player's process's stream follows its session, and is other audio again after it departs",
        arguments: ServerKind.allCases)
    func playerStreams(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let process = try pulse.play(role: "music")
        defer { PulseFixture.end(process) }
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): before its app, other audio")

        let player = AudioSession(
            appID: "mpris.pacat", capabilities: .backgroundAudio, transport: .inProcess(arbiter),
            player: PlayerClaim(processID: process, identity: "pacat as a player"))
        try player.setCategory(.playback)
        #expect(eventually { backend.ownStreams.values.contains { $0.app == "mpris.pacat" } }, "\(kind): the app's own")
        #expect(arbiter.deviceStatus.otherAudio.isEmpty, "no longer other audio")
        try player.setActive(true)
        try player.reportOutputRunning(true)
        // Its own non-mixable playback: as other audio it would be muted (OA2); as its own, it plays.
        #expect(eventually { backend.ownStreams.values.contains { $0.app == "mpris.pacat" && !$0.muted } })

        // PL3: an interruption mutes it from the same step until the end.
        #expect(arbiter.report(.systemSession(.call, begin: true)) == nil)
        #expect(eventually { backend.ownStreams.values.contains { $0.app == "mpris.pacat" && $0.muted } }, "\(kind): muted")

        player.close()
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): other audio again after it left")
        #expect(backend.ownStreams.isEmpty)
    }

    @Test("PL1: a connection may speak only for a process of its own uid, and one that exists")
    func claimsAreChecked() throws {
        let arbiter = try Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let stranger = PeerCredentials(pid: 99, uid: 4242, gid: 4242)
        let claim = PlayerClaim(processID: getpid(), identity: "mine")
        guard
            case .failure(let error) = arbiter.connect(
                Hello(role: .app("mpris.x", []), player: claim), peer: stranger, sink: DroppingSink())
        else {
            Issue.record("uid 4242 spoke for root's process")
            return
        }
        #expect(error.message.contains("is not yours"))
        let nobody = PlayerClaim(processID: Int32.max - 1, identity: "gone")
        guard
            case .failure(let gone) = arbiter.connect(
                Hello(role: .app("mpris.y", []), player: nobody), peer: .thisProcess, sink: DroppingSink())
        else {
            Issue.record("a claim on no process was accepted")
            return
        }
        #expect(gone.message.contains("no process"))
        // The bridge (here a peer of pid 99 and this uid) speaks for this process.
        let bridge = PeerCredentials(pid: 99, uid: getuid(), gid: getgid())
        _ = try arbiter.connect(Hello(role: .app("mpris.z", []), player: claim), peer: bridge, sink: DroppingSink()).get()
        #expect(arbiter.app(forProcess: getpid()) == "mpris.z")
        // PL7: status shows the player's process and identity, not the bridge's pid.
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: DroppingSink()).get()
        guard case .device(let snapshot) = arbiter.handle(.deviceStatus, from: controller) else {
            Issue.record("no device status")
            return
        }
        let row = snapshot.apps.first { $0.app == "mpris.z" }
        #expect(row?.pid == getpid() && row?.player == "mine", "\(String(describing: row))")
    }
}

/// A connection sink that drops everything.
struct DroppingSink: ConnectionSink {
    func send(_ message: ServerMessage) {}
    func close() {}
}
