import AudioSession
import AudioSessionConfiguration
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

@testable import PulseBackend

/// §17 POL2, POL3 on real servers: streams that declare nothing get the intent the table gives
/// their role and application — a system alarm, other audio, a duck level of their own — and a
/// reloaded table applies to the next stream.
@Suite("Device policy on real servers (§17)", .serialized)
struct DevicePolicyTests {
    static func policy(_ text: String) throws -> DevicePolicy {
        try ConfigurationFile.parse(text, file: "policy.yaml").policy
    }

    static let table = """
        policy:
          streams:
            - match: {role: alarm}
              system: alarm
            - match: {role: phone, application-name: "softphone-test*"}
              other-audio: true
          duck-level-by-role: {music: 0.1}
        """

    @Test(
        "POL2: an alarm-role stream is the system alarm while it plays: our app is interrupted and resumed with shouldResume",
        arguments: ServerKind.allCases)
    func alarmStream(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        arbiter.reload(Arbiter.Rules(trust: .user, permissionPolicy: .ask, policy: try Self.policy(Self.table)))
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        defer { music.close() }
        let heard = Heard(music)
        try music.setCategory(.playback)
        try music.setActive(true)
        let alarm = try pulse.play(role: "alarm")
        #expect(eventually { (try? music.status().isInterrupted) == true }, "\(kind): interrupted by the alarm")
        #expect(arbiter.engine.deviceStatus.systemSessions == [.alarm])
        #expect(arbiter.deviceStatus.otherAudio.isEmpty, "the alarm's stream is no other audio")
        PulseFixture.end(alarm)
        #expect(eventually { arbiter.engine.deviceStatus.systemSessions.isEmpty }, "\(kind): the alarm ended with its stream")
        #expect(eventually { heard.contains(.interruptionEnded(shouldResume: true)) }, "\(kind): \(heard.all)")
    }

    @Test(
        "POL2: a phone-role stream an entry sets to other-audio is no call; POL3: a music stream ducks to its role's level",
        arguments: ServerKind.allCases)
    func otherAudioAndRoleDuck(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        arbiter.reload(Arbiter.Rules(trust: .user, permissionPolicy: .ask, policy: try Self.policy(Self.table)))
        let phone = try pulse.play(role: "phone", application: "softphone-test")
        defer { PulseFixture.end(phone) }
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): other audio, as the table says")
        #expect(arbiter.engine.deviceStatus.systemSessions.isEmpty, "no call")

        let music = try pulse.play(role: "music")
        defer { PulseFixture.end(music) }
        #expect(eventually { backend.foreignStreams.count == 2 })
        let navigation = AudioSession(appID: "navigation", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        defer { navigation.close() }
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        // D1 at the device's 0.2 for the phone-role stream, 0.1 for music (POL3).
        #expect(
            eventually { Set(backend.foreignStreams.values.map(\.gain)) == [0.2, 0.1] }, "\(kind): \(backend.foreignStreams)")
        // Status says what is carried out.
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: DroppingSink()).get()
        if case .device(let snapshot) = arbiter.handle(.deviceStatus, from: controller) {
            let gains = Dictionary(uniqueKeysWithValues: snapshot.device.otherAudio.map { ($0.audio.role ?? "", $0.gain) })
            #expect(gains == ["phone": 0.2, "music": 0.1], "POL3 in status: \(gains)")
        } else {
            Issue.record("no device status")
        }

        // SIGHUP's path: a new table applies to the next stream.
        arbiter.reload(Arbiter.Rules(trust: .user, permissionPolicy: .ask, policy: DevicePolicy()))
        let call = try pulse.play(role: "phone", application: "softphone-test")
        defer { PulseFixture.end(call) }
        #expect(eventually { arbiter.engine.deviceStatus.systemSessions == [.call] }, "\(kind): the built-in rule again")
    }

    @Test(
        "POL5: in the system trust mode an alarm-role stream stays other audio unless trust lists its role",
        arguments: ServerKind.allCases)
    func systemModeRoles(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        var trust = TrustPolicy(mode: .system)
        arbiter.reload(Arbiter.Rules(trust: trust, permissionPolicy: .ask, policy: try Self.policy(Self.table)))
        let first = try pulse.play(role: "alarm")
        #expect(eventually { arbiter.deviceStatus.otherAudio.count == 1 }, "\(kind): other audio, not an alarm")
        #expect(arbiter.engine.deviceStatus.systemSessions.isEmpty)
        PulseFixture.end(first)
        #expect(eventually { arbiter.deviceStatus.otherAudio.isEmpty })

        trust.systemSessionRoles.insert("alarm")
        arbiter.reload(Arbiter.Rules(trust: trust, permissionPolicy: .ask, policy: try Self.policy(Self.table)))
        let second = try pulse.play(role: "alarm")
        defer { PulseFixture.end(second) }
        #expect(
            eventually { arbiter.engine.deviceStatus.systemSessions == [.alarm] },
            """
            \(kind): allowed, the alarm; other audio \(arbiter.deviceStatus.otherAudio), foreign streams \(backend.foreignStreams), \
            own \(backend.ownStreams); the server's streams: \((try? pulse.pactl(["list", "short", "sink-inputs"])) ?? "none"), \
            pacat alive: \(kill(second, 0) == 0)
            """)
    }

    @Test(
        "POL2 session: a navigation stream is a hosted session: it ducks music while it plays, a call mutes it until it ends",
        arguments: ServerKind.allCases)
    func navigationStream(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let table = """
            policy:
              streams:
                - match: {role: navigation}
                  session: {category: playback, mode: voicePrompt, options: [mixWithOthers, duckOthers]}
            """
        arbiter.reload(Arbiter.Rules(trust: .user, permissionPolicy: .ask, policy: try Self.policy(table)))
        let music = try pulse.play(role: "music")
        defer { PulseFixture.end(music) }
        #expect(eventually { backend.foreignStreams.count == 1 }, "\(kind): music is other audio")
        let navigation = try pulse.play(role: "navigation")
        #expect(
            eventually { backend.ownStreams.values.contains { $0.app == "stream.navigation.pacat" && !$0.muted } },
            "\(kind): a hosted session's own stream, playing: \(backend.ownStreams)")
        #expect(arbiter.status(of: "stream.navigation.pacat")?.isOutputRunning == true)
        #expect(arbiter.hostedOrigin(of: "stream.navigation.pacat") == "policy.streams[1] (policy.yaml:3)")
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: DroppingSink()).get()
        if case .device(let snapshot) = arbiter.handle(.deviceStatus, from: controller) {
            let row = snapshot.apps.first { $0.app == "stream.navigation.pacat" }
            #expect(
                row?.kind == .stream && row?.policy == "policy.streams[1] (policy.yaml:3)", "POL4: \(String(describing: row))")
        } else {
            Issue.record("no device status")
        }
        #expect(eventually { backend.foreignStreams.values.map(\.gain) == [0.2] }, "\(kind): D1, music ducked")

        // I4: a call interrupts it: muted (a stream cannot be paused) until the call ends.
        #expect(arbiter.report(.systemSession(.call, begin: true)) == nil)
        #expect(eventually { backend.ownStreams.values.contains { $0.app == "stream.navigation.pacat" && $0.muted } })
        #expect(arbiter.report(.systemSession(.call, begin: false)) == nil)
        #expect(
            eventually { backend.ownStreams.values.contains { $0.app == "stream.navigation.pacat" && !$0.muted } },
            "\(kind): playing again after the call")

        PulseFixture.end(navigation)
        #expect(eventually { arbiter.status(of: "stream.navigation.pacat") == nil }, "\(kind): its session departed")
        #expect(eventually { backend.foreignStreams.values.map(\.gain) == [1] }, "\(kind): the duck ended with it")
    }

    @Test(
        "POL2 on PipeWire's own protocol: pw-play --media-role=Navigation is hosted by `role: navigation` (roles ignore case; its binary, pw-cat, from its client)"
    )
    func nativeNavigationStream() throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(.pipewire)
        defer { backend.close(); pulse.stop() }
        let table = """
            policy:
              streams:
                - match: {role: navigation, binary: "pw-*"}
                  session: {category: playback, mode: voicePrompt, options: [mixWithOthers, duckOthers]}
            """
        arbiter.reload(Arbiter.Rules(trust: .user, permissionPolicy: .ask, policy: try Self.policy(table)))
        let tone = try PlaybackLevelTests.tone(pulse, seconds: 30, amplitude: 0.1, name: "prompt")
        let navigation = try pulse.play(file: tone, role: "Navigation")
        defer { PulseFixture.end(navigation) }
        #expect(
            eventually { backend.ownStreams.values.contains { $0.app == "stream.navigation.pw-cat" && !$0.muted } },
            "a hosted session's own stream: \(backend.ownStreams), other audio \(backend.foreignStreams)")
    }

    /// Everything a session heard, in order.
    final class Heard: Sendable {
        private let notifications = Mutex<[SessionNotification]>([])
        init(_ session: AudioSession) {
            session.addNotificationHandler { [self] notification in notifications.withLock { $0.append(notification) } }
        }
        var all: [SessionNotification] { notifications.withLock { $0 } }
        func contains(_ notification: SessionNotification) -> Bool { all.contains(notification) }
    }
}
