import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
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

    @Test(
        "PL1: a stream that names its process only on its client (PipeWire's own protocol: pw-play, mpv's default output) is its player's",
        arguments: ServerKind.allCases)
    func processFromTheClient(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        // pw-play on PipeWire (its sink input carries no application.process.id), paplay on PulseAudio.
        let process = try pulse.play(file: PlaybackLevelTests.tone(pulse, seconds: 30, amplitude: 0.1, name: "native"))
        defer { PulseFixture.end(process) }
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): before its app, other audio")
        let player = AudioSession(
            appID: "mpris.native", capabilities: .backgroundAudio, transport: .inProcess(arbiter),
            player: PlayerClaim(processID: process, identity: "a native player"))
        defer { player.close() }
        try player.setCategory(.playback)
        try player.setActive(true)
        try player.reportOutputRunning(true)
        #expect(
            eventually { backend.ownStreams.values.contains { $0.app == "mpris.native" && !$0.muted } },
            "\(kind): its stream is its own and plays (as other audio its own playback would mute it)")
        #expect(arbiter.deviceStatus.otherAudio.isEmpty)
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

    @Test(
        "PL1: a player's process that connects as an app after the bridge claimed it is that app, once: the bridge's app is let go"
    )
    func claimLetGoWhenTheAppConnects() throws {
        let arbiter = try Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let process = getppid()  // a process of this uid that is not the daemon's own
        let bridge = PeerCredentials(pid: 99, uid: getuid(), gid: getgid())
        let bridgeSink = ClosedSink()
        _ = try arbiter.connect(
            Hello(role: .app("mpris.podcast", []), player: PlayerClaim(processID: process, identity: "Podcasts")), peer: bridge,
            sink: bridgeSink
        ).get()
        #expect(arbiter.app(forProcess: process) == "mpris.podcast")
        // The program's own session connects (its MPRIS name was published first).
        let app = PeerCredentials(pid: process, uid: getuid(), gid: getgid())
        _ = try arbiter.connect(Hello(role: .app("com.example.podcasts", [])), peer: app, sink: DroppingSink()).get()
        #expect(arbiter.app(forProcess: process) == nil, "no player app speaks for it any more")
        #expect(arbiter.status(of: "mpris.podcast") == nil, "the player's session departed")
        #expect(arbiter.status(of: "com.example.podcasts") != nil)
        #expect(bridgeSink.closed.withLock { $0 }, "the bridge's connection for it is closed")
        // Its claim is refused from now on (the bridge's reconnection).
        guard
            case .failure(let refused) = arbiter.connect(
                Hello(role: .app("mpris.podcast", []), player: PlayerClaim(processID: process, identity: "Podcasts")),
                peer: bridge, sink: DroppingSink())
        else {
            Issue.record("the claim was accepted again")
            return
        }
        #expect(refused.message.contains("PL1: this player's process is the connected app com.example.podcasts"))
    }
}

/// A sink that remembers being closed.
final class ClosedSink: ConnectionSink {
    let closed = Mutex(false)
    func send(_ message: ServerMessage) {}
    func close() { closed.withLock { $0 = true } }
}

/// POL1, POL4 at the arbiter: a player's app gets the table's intent from its first step, or is
/// refused when the table ignores it; status names its kind and the entry.
@Suite("A player's intent from the device policy (POL1, POL4)")
struct PlayerPolicyTests {
    @Test("POL1: the first matching entry gives the intent; ignore refuses the player; no match is PL1's playback")
    func intents() throws {
        let arbiter = try Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let mixing = try DevicePolicy.Intent(category: .playback, options: .mixWithOthers)
        arbiter.reload(
            Arbiter.Rules(
                trust: .user, permissionPolicy: .ask,
                policy: DevicePolicy(players: [
                    .init(match: .init(busName: try Glob("chromium*")), action: .intent(mixing), origin: "entry 1"),
                    .init(match: .init(identity: try Glob("Kodi")), action: .ignore, origin: "entry 2"),
                ])))
        func connect(_ app: AppID, _ identity: String, _ busName: String) -> Result<Arbiter.ConnectionID, SessionError> {
            arbiter.connect(
                Hello(role: .app(app, []), player: PlayerClaim(processID: getpid(), identity: identity, busName: busName)),
                peer: .thisProcess, sink: DroppingSink())
        }
        _ = try connect("mpris.chromium.instance7", "Chromium", "chromium.instance7").get()
        #expect(arbiter.status(of: "mpris.chromium.instance7")?.categoryOptions == .mixWithOthers)
        guard case .failure(let ignored) = connect("mpris.kodi", "Kodi", "kodi") else {
            Issue.record("an ignored player was connected")
            return
        }
        #expect(ignored.message.hasPrefix("POL1: the device policy ignores this player (entry 2)"))
        #expect(arbiter.status(of: "mpris.kodi") == nil)
        _ = try connect("mpris.mpv", "mpv", "mpv").get()
        #expect(arbiter.status(of: "mpris.mpv")?.category == .playback)
        #expect(arbiter.status(of: "mpris.mpv")?.categoryOptions == [])

        // POL4: each app's kind and the entry that gave its intent.
        _ = try arbiter.connect(Hello(role: .app("plain.client", [])), peer: .thisProcess, sink: DroppingSink()).get()
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: DroppingSink()).get()
        guard case .device(let snapshot) = arbiter.handle(.deviceStatus, from: controller) else {
            Issue.record("no device status")
            return
        }
        let rows = Dictionary(uniqueKeysWithValues: snapshot.apps.map { ($0.app, $0) })
        #expect(rows["mpris.chromium.instance7"]?.kind == .player && rows["mpris.chromium.instance7"]?.policy == "entry 1")
        #expect(rows["mpris.mpv"]?.policy == "default: playback (PL1)")
        #expect(rows["plain.client"]?.kind == .client && rows["plain.client"]?.policy == nil)
    }
}

extension PlayerPolicyTests {
    @Test("PL1 in the system trust mode: a player's app has its manifest's capabilities, and is not refused for declaring more")
    func systemModeCapabilities() throws {
        let arbiter = try Arbiter(configuration: .init(), logger: RealServerTests.quiet)
        let manifest = AppManifest(capabilities: [.backgroundAudio, .nowPlaying], source: "mpris.granted.yaml")
        arbiter.reload(
            Arbiter.Rules(
                trust: TrustPolicy(mode: .system, manifests: ["mpris.granted": manifest], appStartState: .background),
                permissionPolicy: .ask))
        func player(_ app: AppID) throws -> Arbiter.ConnectionID {
            try arbiter.connect(
                Hello(
                    role: .app(app, [.backgroundAudio, .nowPlaying]),
                    player: PlayerClaim(processID: getpid(), identity: app.rawValue, busName: app.rawValue)),
                peer: .thisProcess, sink: DroppingSink()
            ).get()
        }
        let granted = try player("mpris.granted")
        let bare = try player("mpris.bare")
        // In the background, a non-mixable playback session needs now-playing to start (A4).
        #expect(arbiter.handle(.call(.setActive(true)), from: granted) == .done)
        guard case .failed(let error) = arbiter.handle(.call(.setActive(true)), from: bare) else {
            Issue.record("a player without a manifest started non-mixable from the background")
            return
        }
        #expect(error.code == .cannotStartPlaying && error.message.hasPrefix("A4"), "\(error)")
        // An ordinary app declaring beyond its manifest is still refused (T1).
        let ordinary = arbiter.connect(Hello(role: .app("plain", [.nowPlaying])), peer: .thisProcess, sink: DroppingSink())
        guard case .failure = ordinary else {
            Issue.record("an app beyond its manifest was connected")
            return
        }
    }
}

/// A connection sink that drops everything.
struct DroppingSink: ConnectionSink {
    func send(_ message: ServerMessage) {}
    func close() {}
}
