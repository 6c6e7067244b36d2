import AudioSession
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

/// N4: interruptions, media-services notifications and the silence hint are posted on the main
/// queue; route changes on the session's event queue, not the main one; N2's order holds across
/// the two — embedded and through a daemon. (Thread.isMainThread itself, with a Timer scheduled
/// in the handler, is checked by the Compatibility app, whose main thread runs its run loop: in
/// this test process the main queue may be served by another thread, under dispatchMain.)
@Suite("Notifications on the thread iOS posts them on (N4)", .serialized)
struct MainThreadNotificationTests {
    static let mainKey: DispatchSpecificKey<String> = {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        return key
    }()

    /// What observers of a session heard, in order, each with where it ran.
    final class Heard: @unchecked Sendable {
        let lines = Mutex<[String]>([])
        var tokens: [any NSObjectProtocol] = []

        init(_ session: AudioSession) {
            _ = MainThreadNotificationTests.mainKey
            for (name, label) in [
                (AudioSession.interruptionNotification, "interruption"), (AudioSession.routeChangeNotification, "route"),
                (AudioSession.silenceSecondaryAudioHintNotification, "hint"),
            ] {
                tokens.append(
                    NotificationCenter.default.addObserver(forName: name, object: session, queue: nil) { [weak self] _ in
                        let main = DispatchQueue.getSpecific(key: MainThreadNotificationTests.mainKey) == "main"
                        self?.lines.withLock { $0.append("\(label) \(main ? "main" : "event queue")") }
                    })
            }
        }

        deinit { for token in tokens { NotificationCenter.default.removeObserver(token) } }
    }

    /// A call begins, headphones are plugged during it, the call ends, all at once; then the
    /// posts are waited for.
    static func heard(_ transport: AudioSessionTransport, system: (SystemEvent) throws -> Void) throws -> [String] {
        let session = AudioSession(appID: "meditation", capabilities: .backgroundAudio, transport: transport)
        defer { session.close() }
        try session.setCategory(.playback)
        try session.setActive(true)
        try session.waitForPendingNotifications()
        let heard = Heard(session)
        try system(.systemSession(.call, begin: true))
        try system(.plug(.headphones, uid: nil))
        try system(.systemSession(.call, begin: false))
        try session.waitForPendingNotifications()
        return heard.lines.withLock { $0 }
    }

    static let expected = ["interruption main", "route event queue", "interruption main"]

    @Test("N4 embedded: interruptions on the main queue, the route change on the event queue, in N2's order")
    func embedded() throws {
        let arbiter = try Arbiter(configuration: .init(profile: .iphone), logger: .quiet)
        let lines = try Self.heard(.inProcess(arbiter)) { event in
            if let error = arbiter.report(event) { throw error }
        }
        #expect(lines == Self.expected, "\(lines)")
    }

    @Test("N4 through a daemon: the same")
    func throughADaemon() async throws {
        let fixture = try await SocketFixture.start()
        let lines = try Self.heard(fixture.transport) { event in
            if let error = fixture.arbiter.report(event) { throw error }
        }
        await fixture.stop()
        #expect(lines == Self.expected, "\(lines)")
    }

    @Test("N4: the silence hint is posted on the main queue too")
    func hint() throws {
        let arbiter = try Arbiter(configuration: .init(profile: .iphone), logger: .quiet)
        let game = AudioSession(appID: "game", transport: .inProcess(arbiter))
        defer { game.close() }
        try game.setCategory(.ambient)
        try game.setActive(true)
        let heard = Heard(game)
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        defer { music.close() }
        try music.setCategory(.playback, options: [.mixWithOthers])
        try music.setCategory(.playback)
        try music.setActive(true)
        try music.reportOutputRunning(true)
        try game.waitForPendingNotifications()
        let lines = heard.lines.withLock { $0 }
        #expect(lines.contains("hint main") && !lines.contains("hint event queue"), "\(lines)")
    }
}
