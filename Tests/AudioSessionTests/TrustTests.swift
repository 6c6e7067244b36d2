import AudioSession
import AudioSessionDaemon
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Synchronization
import Testing

/// Trust in both modes (issue 18): an app id is bound to the uid that held it when its record
/// permission was answered, and a monitor of an ordinary user sees only that user's apps.
@Suite("Trust")
struct TrustTests {
    static func peer(_ uid: UInt32) -> PeerCredentials { PeerCredentials(pid: Int32(uid), uid: uid, gid: uid) }

    /// Keeps what the arbiter sends to one connection.
    final class Inbox: ConnectionSink, Sendable {
        let messages = Mutex<[ServerMessage]>([])
        func send(_ message: ServerMessage) { messages.withLock { $0.append(message) } }
        func close() {}
        var observedApps: [AppID] {
            messages.withLock { messages in
                messages.compactMap { if case .event(.observed(_, _, let app, _)) = $0 { app } else { nil } }
            }
        }
    }

    @Test("Another uid cannot take an app id whose permission was answered, even after a restart")
    func appIDsAreBoundToTheirUID() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SettingsStore(directory: directory.path + "/state")
        let arbiter = try Arbiter(configuration: .init(store: store), logger: .quiet)
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        let memo = try arbiter.connect(Hello(role: .app("memo", [])), peer: Self.peer(1000), sink: NullSink()).get()
        _ = arbiter.handle(.call(.requestRecordPermission), from: memo)
        #expect(arbiter.handle(.answerPermission("memo", granted: true), from: controller) == .done)
        arbiter.disconnect(memo)

        for candidate in [arbiter, try Arbiter(configuration: .init(store: store), logger: .quiet)] {
            guard
                case .failure(let error) = candidate.connect(
                    Hello(role: .app("memo", [])), peer: Self.peer(1001), sink: NullSink())
            else {
                Issue.record("uid 1001 took memo and its granted permission")
                continue
            }
            // T2: refused without naming the holder's uid or pid.
            #expect(error.message.contains("belongs to another user") && !error.message.contains("1000"))
            let owner = try candidate.connect(Hello(role: .app("memo", [])), peer: Self.peer(1000), sink: NullSink()).get()
            guard case .status(let status) = candidate.handle(.status, from: owner) else { continue }
            #expect(status.recordPermission == .granted)
            candidate.disconnect(owner)
        }
        #expect(try store.loadState().owners == ["memo": 1000])
    }

    @Test("A monitor of an ordinary user sees and hears only its own uid's apps; the daemon's user sees all")
    func monitorsSeeTheirOwnApps() throws {
        let arbiter = try Arbiter(configuration: .init(), logger: .quiet)
        let mine = try arbiter.connect(Hello(role: .app("mine", [])), peer: Self.peer(1001), sink: NullSink()).get()
        let theirs = try arbiter.connect(Hello(role: .app("theirs", [])), peer: Self.peer(1000), sink: NullSink()).get()
        let inbox = Inbox()
        let monitor = try arbiter.connect(Hello(role: .monitor), peer: Self.peer(1001), sink: inbox).get()
        let admin = try arbiter.connect(Hello(role: .monitor), peer: .thisProcess, sink: NullSink()).get()
        guard case .device(let limited) = arbiter.handle(.deviceStatus, from: monitor),
            case .device(let full) = arbiter.handle(.deviceStatus, from: admin)
        else {
            Issue.record("no device status")
            return
        }
        #expect(limited.apps.map(\.app) == ["mine"])
        #expect(full.apps.map(\.app) == ["mine", "theirs"])
        _ = arbiter.handle(.subscribe, from: monitor)
        for app in [mine, theirs] { _ = arbiter.handle(.call(.setCategory(.playAndRecord)), from: app) }
        #expect(inbox.observedApps == ["mine"])
    }
}
