import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Testing

/// T1–T4 in the arbiter: the system trust mode (configured controllers and monitors, app
/// manifests, app state set only by a controller), T2's lifetime binding of app ids, and a
/// reload that judges connected peers again without dropping them.
@Suite("System trust mode")
struct SystemTrustTests {
    static func peer(_ uid: UInt32, groups: [UInt32] = []) -> PeerCredentials {
        PeerCredentials(pid: Int32(uid), uid: uid, gid: uid, groups: groups)
    }

    static let device = TrustPolicy(
        mode: .system, controllers: PeerSet(uids: [2000], groups: [3000]), monitors: PeerSet(uids: [2100]),
        manifests: [
            "radio": AppManifest(capabilities: [.backgroundAudio, .nowPlaying], source: "/etc/audiosession/apps/radio.yaml"),
            "game": AppManifest(capabilities: [], source: "/etc/audiosession/apps/game.yaml"),
        ],
        appStartState: .background)

    static func arbiter(_ trust: TrustPolicy = device) throws -> Arbiter {
        try Arbiter(configuration: .init(trust: trust), logger: .quiet)
    }

    static func refusal(_ result: Result<Arbiter.ConnectionID, SessionError>) -> SessionError? {
        if case .failure(let error) = result { error } else { nil }
    }

    @Test("T1: controllers and monitors only from configured uids or groups, and root")
    func configuredControllersAndMonitors() throws {
        let arbiter = try Self.arbiter()
        let stranger = Self.refusal(arbiter.connect(Hello(role: .controller), peer: Self.peer(1500), sink: NullSink()))
        #expect(stranger?.code == .missingEntitlement && stranger?.message.contains("trust.controllers") == true)
        #expect(
            Self.refusal(arbiter.connect(Hello(role: .monitor), peer: Self.peer(1500), sink: NullSink()))?.code
                == .missingEntitlement)
        // Listed by uid, by a supplementary group, and root: each may send a system event.
        for peer in [Self.peer(2000), Self.peer(1600, groups: [42, 3000]), Self.peer(0)] {
            let controller = try arbiter.connect(Hello(role: .controller), peer: peer, sink: NullSink()).get()
            #expect(arbiter.handle(.system(.lock), from: controller) == .done, "\(peer)")
            #expect(arbiter.handle(.system(.unlock), from: controller) == .done)
        }
        // A configured monitor reads every app; it may not control.
        _ = try arbiter.connect(Hello(role: .app("game", [])), peer: Self.peer(1500), sink: NullSink()).get()
        let monitor = try arbiter.connect(Hello(role: .monitor), peer: Self.peer(2100), sink: NullSink()).get()
        guard case .device(let snapshot) = arbiter.handle(.deviceStatus, from: monitor) else {
            Issue.record("no device status")
            return
        }
        #expect(snapshot.apps.map(\.app) == ["game"])
        guard case .failed(let error) = arbiter.handle(.system(.lock), from: monitor) else {
            Issue.record("a monitor locked the device")
            return
        }
        #expect(error.code == .missingEntitlement)
    }

    @Test("T1: capabilities come from the manifest; a hello declaring more gets ent? and is refused")
    func manifestsGrantCapabilities() throws {
        let arbiter = try Self.arbiter()
        let greedy = Self.refusal(
            arbiter.connect(Hello(role: .app("game", [.backgroundAudio])), peer: Self.peer(1500), sink: NullSink()))
        #expect(greedy?.code == .missingEntitlement)
        #expect(greedy?.message.contains("declares background-audio") == true)
        #expect(greedy?.message.contains("/etc/audiosession/apps/game.yaml grants nothing") == true)
        let unknown = Self.refusal(
            arbiter.connect(Hello(role: .app("unlisted", [.nowPlaying])), peer: Self.peer(1500), sink: NullSink()))
        #expect(unknown?.message.contains("it has no manifest") == true)
        // Nothing was registered by the refusals; within the manifest, welcomed.
        #expect(arbiter.status(of: "game") == nil && arbiter.status(of: "unlisted") == nil)
        _ = try arbiter.connect(Hello(role: .app("radio", [.backgroundAudio])), peer: Self.peer(1500), sink: NullSink()).get()
        _ = try arbiter.connect(Hello(role: .app("unlisted", [])), peer: Self.peer(1501), sink: NullSink()).get()
    }

    @Test("T1, A4, D5: the app state is the shell's word; an app cannot bring itself to the foreground")
    func appStateOnlyFromAController() throws {
        let arbiter = try Self.arbiter()
        let game = try arbiter.connect(Hello(role: .app("game", [])), peer: Self.peer(1500), sink: NullSink()).get()
        #expect(arbiter.status(of: "game")?.appState == .background)  // trust.app-start-state
        _ = arbiter.handle(.call(.setCategory(.playback)), from: game)
        guard case .failed(let own) = arbiter.handle(.call(.setAppState(.foreground)), from: game) else {
            Issue.record("the app moved itself to the foreground")
            return
        }
        #expect(own.code == .missingEntitlement)
        #expect(arbiter.status(of: "game")?.appState == .background)
        // A4: in the background without background-audio, playback cannot start.
        guard case .failed(let a4) = arbiter.handle(.call(.setActive(true)), from: game) else {
            Issue.record("a background app without background-audio started playing")
            return
        }
        #expect(a4.code == .cannotStartPlaying)
        let shell = try arbiter.connect(Hello(role: .controller), peer: Self.peer(2000), sink: NullSink()).get()
        #expect(arbiter.handle(.setAppState("game", .foreground), from: shell) == .done)
        #expect(arbiter.status(of: "game")?.appState == .foreground)
        #expect(arbiter.handle(.call(.setActive(true)), from: game) == .done)
        guard case .failed(let absent) = arbiter.handle(.setAppState("nobody", .foreground), from: shell) else {
            Issue.record("moved an app that is not connected")
            return
        }
        #expect(absent.code == .badParam && absent.message.contains("not connected"))
    }

    @Test("T1: in the user mode apps declare their own state and capabilities; a controller may move them too")
    func userModeTakesTheAppsWord() throws {
        let arbiter = try Self.arbiter(.user)
        let game = try arbiter.connect(Hello(role: .app("game", [.backgroundAudio])), peer: .thisProcess, sink: NullSink()).get()
        #expect(arbiter.status(of: "game")?.appState == .foreground)
        #expect(arbiter.handle(.call(.setAppState(.background)), from: game) == .done)
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        #expect(arbiter.handle(.setAppState("game", .foreground), from: controller) == .done)
        #expect(arbiter.status(of: "game")?.appState == .foreground)
    }

    @Test("T2: an app id belongs to the uid that first registered it for the daemon's lifetime; the refusal names no one")
    func appIDsBelongToTheirFirstUID() throws {
        let arbiter = try Self.arbiter(.user)
        let first = try arbiter.connect(Hello(role: .app("notes", [])), peer: Self.peer(1000), sink: NullSink()).get()
        let whileConnected = Self.refusal(
            arbiter.connect(Hello(role: .app("notes", [])), peer: Self.peer(1001), sink: NullSink()))
        arbiter.disconnect(first)
        let afterwards = Self.refusal(arbiter.connect(Hello(role: .app("notes", [])), peer: Self.peer(1001), sink: NullSink()))
        for refusal in [whileConnected, afterwards] {
            #expect(refusal?.code == .badParam)
            #expect(refusal?.message.contains("belongs to another user") == true)
            #expect(refusal?.message.contains("1000") == false, "names the holder: \(refusal?.message ?? "")")
        }
        _ = try arbiter.connect(Hello(role: .app("notes", [])), peer: Self.peer(1000), sink: NullSink()).get()
    }

    @Test("Reload: connected peers are judged by the new rules at once and none is dropped")
    func reloadJudgesAgain() throws {
        let arbiter = try Self.arbiter()
        let shell = try arbiter.connect(Hello(role: .controller), peer: Self.peer(2000), sink: NullSink()).get()
        let radio = try arbiter.connect(Hello(role: .app("radio", [.backgroundAudio])), peer: Self.peer(1500), sink: NullSink())
            .get()
        var rules = arbiter.rules
        rules.trust.controllers = PeerSet(uids: [2001])
        rules.permissionPolicy = .deny
        arbiter.reload(rules)
        guard case .failed(let error) = arbiter.handle(.system(.lock), from: shell) else {
            Issue.record("a controller removed by the reload still controls")
            return
        }
        #expect(error.code == .missingEntitlement)
        // The app's connection and session are untouched; the new permission policy answers.
        #expect(arbiter.handle(.call(.requestRecordPermission), from: radio) == .done)
        #expect(arbiter.status(of: "radio")?.recordPermission == .denied)
        _ = try arbiter.connect(Hello(role: .controller), peer: Self.peer(2001), sink: NullSink()).get()
    }
}
