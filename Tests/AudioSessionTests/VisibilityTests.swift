import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Synchronization
import Testing

/// T4 (issue 25): what a monitor or controller of another uid receives, field by field and
/// notification by notification. A field added to the device status, or a notification kind
/// added to the protocol, must be classified here before it can reach such a reader.
@Suite("T4: what a reader of another uid sees")
struct VisibilityTests {
    static let secret = AppID("t4.secret.app")
    static let owner = TrustTests.peer(4242)
    static let stranger = TrustTests.peer(4343)

    /// Everything the arbiter sends one connection, as the bytes that go on the wire.
    final class Recorder: ConnectionSink, Sendable {
        let messages = Mutex<[ServerMessage]>([])
        func send(_ message: ServerMessage) { messages.withLock { $0.append(message) } }
        func close() {}

        var bytes: [UInt8] { messages.withLock { $0.flatMap { $0.encoded() } } }
        var observedApps: [AppID] {
            messages.withLock { messages in
                messages.compactMap { if case .event(.observed(_, _, let app, _)) = $0 { app } else { nil } }
            }
        }
        var observed: [SessionNotification] {
            messages.withLock { messages in
                messages.compactMap { if case .event(.observed(_, _, _, let notification)) = $0 { notification } else { nil } }
            }
        }
    }

    @Test("T4: every wire field of the device status is classified as device-wide or filtered")
    func everyFieldIsClassified() {
        let fields = DeviceStatus.wireFieldNames
        let unclassified = fields.filter { DeviceStatus.t4Visibility[$0] == nil }
        #expect(unclassified.isEmpty, "classify these device status fields in DeviceStatus.t4Visibility: \(unclassified)")
        #expect(Set(DeviceStatus.t4Visibility.keys) == Set(fields), "a classified field is not on the wire any more")
    }

    /// A device with another user's app owning the route and playing, that user's stream of
    /// other audio, a stream whose user is unknown, and the stranger's own idle app.
    static func device() throws -> (Arbiter, controller: Arbiter.ConnectionID, visible: Arbiter.ConnectionID) {
        let arbiter = try Arbiter(configuration: .init(), logger: .quiet)
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        let app = try arbiter.connect(Hello(role: .app(secret, [.backgroundAudio])), peer: owner, sink: NullSink()).get()
        let visible = try arbiter.connect(Hello(role: .app("t4.visible.app", [])), peer: stranger, sink: NullSink()).get()
        #expect(arbiter.handle(.call(.setCategory(.playAndRecord)), from: app) == .done)
        #expect(arbiter.handle(.call(.setActive(true)), from: app) == .done)
        #expect(arbiter.handle(.call(.startOutput), from: app) == .done)
        let streams = [
            OtherAudio(id: "pulse:1", name: "t4.secret.player", role: "music", uid: owner.uid),
            OtherAudio(id: "pulse:2", name: "shared-speaker", role: "event"),
        ]
        for stream in streams { #expect(arbiter.report(.otherAudioStarted(stream)) == nil) }
        return (arbiter, controller, visible)
    }

    @Test(
        "T4: a monitor of another uid reads every device-wide field as it is, and nothing naming the other user's apps or streams"
    )
    func deviceStatusOfAnotherUID() throws {
        let (arbiter, controller, _) = try Self.device()
        let monitor = try arbiter.connect(Hello(role: .monitor), peer: Self.stranger, sink: NullSink()).get()
        guard case .device(let full) = arbiter.handle(.deviceStatus, from: controller),
            case .device(let seen) = arbiter.handle(.deviceStatus, from: monitor)
        else {
            Issue.record("no device status")
            return
        }
        #expect(full.device.routingOwner == Self.secret && full.device.activeApps == [Self.secret])
        #expect(full.device.route != .none, "the owner has a route")

        // Filtered fields: nothing of uid 4242 is left.
        #expect(seen.device.routingOwner == nil)
        #expect(seen.device.activeApps.isEmpty)
        #expect(seen.device.otherAudio.map(\.audio.id) == ["pulse:2"], "the stream of unknown user stays device-wide")
        #expect(seen.apps.map(\.app) == ["t4.visible.app"])
        let bytes = DeviceSnapshotBytes.of(seen)
        #expect(!bytes.contains("t4.secret"), "the reply's bytes name another user's app or stream")
        #expect(DeviceSnapshotBytes.of(full).contains("t4.secret"), "the check above could fail")

        // Device-wide fields: exactly what the system's own reader reads. Every field not
        // classified `.filtered` is compared (the test above keeps the table complete).
        var expected = full.device
        let filtered = DeviceStatus.t4Visibility.filter { $0.value == .filtered }.keys.sorted()
        #expect(filtered == ["active apps", "other audio", "routing owner"], "compare a newly filtered field below")
        expected.routingOwner = seen.device.routingOwner
        expected.activeApps = seen.device.activeApps
        expected.otherAudio = seen.device.otherAudio
        #expect(seen.device == expected, "a device-wide field differs for a reader of another uid")
        #expect(seen.device.route == full.device.route, "T4: the routing owner's route is a device-wide fact")
    }

    /// The name of a notification's kind; the switch fails to compile when a kind is added, so
    /// the kind must be added to `allKinds` and produced below.
    static func kind(_ notification: SessionNotification) -> String {
        switch notification {
        case .interruptionBegan: "interruptionBegan"
        case .interruptionEnded: "interruptionEnded"
        case .routeChange: "routeChange"
        case .silenceSecondaryAudioHint: "silenceSecondaryAudioHint"
        case .mediaServicesLost: "mediaServicesLost"
        case .mediaServicesReset: "mediaServicesReset"
        case .outputVolume: "outputVolume"
        case .recordPermission: "recordPermission"
        }
    }

    static let allKinds: Set<String> = [
        "interruptionBegan", "interruptionEnded", "routeChange", "silenceSecondaryAudioHint", "mediaServicesLost",
        "mediaServicesReset", "outputVolume", "recordPermission",
    ]

    @Test("T4: a subscriber of another uid hears no notification of any kind about another user's app")
    func everyNotificationKind() throws {
        let (arbiter, controller, visible) = try Self.device()
        let stranger = Recorder()
        let ownerMonitor = Recorder()
        let subscribers = [
            try arbiter.connect(Hello(role: .monitor), peer: Self.stranger, sink: stranger).get(),
            try arbiter.connect(Hello(role: .monitor), peer: Self.owner, sink: ownerMonitor).get(),
        ]
        for subscriber in subscribers { #expect(arbiter.handle(.subscribe, from: subscriber) == .done) }
        let secretApp = try arbiter.connect(
            Hello(role: .app("t4.secret.other", [])), peer: Self.owner, sink: NullSink()
        ).get()
        let steps: [(Request, Arbiter.ConnectionID)] = [
            (.system(.plug(.headphones)), controller),  // route change
            (.system(.systemSession(.call, begin: true)), controller),  // interruption began
            (.system(.systemSession(.call, begin: false)), controller),  // ended
            (.system(.outputVolume(0.4)), controller),
            (.call(.requestRecordPermission), secretApp),
            (.answerPermission("t4.secret.other", granted: true), controller),
            (.call(.setCategory(.ambient)), secretApp),
            (.call(.setActive(true)), secretApp),
            // The stranger's own non-mixable playback: the mixable app of the owner gets the hint.
            (.call(.setCategory(.playback)), visible), (.call(.setActive(true)), visible), (.call(.startOutput), visible),
            (.system(.mediaServicesReset), controller),
        ]
        for (request, connection) in steps { _ = arbiter.handle(request, from: connection) }

        let heard = Set(ownerMonitor.observed.map(Self.kind))
        #expect(heard == Self.allKinds, "produce every kind for the owner's apps; missing: \(Self.allKinds.subtracting(heard))")
        let bytes = String(decoding: stranger.bytes, as: UTF8.self)
        #expect(!bytes.contains("t4.secret"), "a subscriber of another uid heard of another user's app")
        #expect(Set(stranger.observedApps) == ["t4.visible.app"], "the stranger hears its own app, and only it")
    }
}

/// The wire bytes of a device snapshot reply, as text to search.
enum DeviceSnapshotBytes {
    static func of(_ snapshot: DeviceSnapshot) -> String {
        String(decoding: ServerMessage.reply(id: 1, .device(snapshot)).encoded(), as: UTF8.self)
    }
}
