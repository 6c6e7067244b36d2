import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import PulseBackend

/// RT13 (issue 40): the user's choice of output wins, on real servers, for a client's stream and
/// a player's (mpv through the bridge): the server's default output replaces "last in wins", a
/// stream moved by hand stays where the user put it, and the daemon's own moves are never taken
/// for the user's.
@Suite("RT13: the user's choice of output wins", .serialized)
struct OutputChoiceTests {
    /// An app's route changes, as its session heard them.
    final class RouteChanges: Sendable {
        let items = Mutex<[(reason: RouteChangeReason, output: String?)]>([])
        func saw(_ reason: RouteChangeReason, to output: String) -> Bool {
            eventually { items.withLock { $0.contains { $0.reason == reason && $0.output == output } } }
        }
    }

    static func listen(_ session: AudioSession) -> RouteChanges {
        let changes = RouteChanges()
        _ = session.addNotificationHandler { notification in
            if case .routeChange(let reason, _, let current) = notification {
                changes.items.withLock { $0.append((reason, current.outputs.first?.uid)) }
            }
        }
        return changes
    }

    @Test(
        "A client: the default output wins over a device plugged later; a new default moves it; a stream moved by hand stays and its route says so; unplugged, the default again; a record-only category ends the choice; our own moves (RT10) are never the user's",
        arguments: ServerKind.allCases)
    func client(_ kind: ServerKind) throws {
        let pulse = try PulseFixture(kind)
        let log = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let arbiter = try Arbiter(configuration: .init(profile: .desktop), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: logger)
        defer { backend.close(); pulse.stop() }
        /// What the backend said of moves and choices (shown when an expectation fails).
        func trail() -> String {
            log.entries.map { "\($0.message) \($0.metadata)" }.filter { $0.contains("RT13") || $0.contains("moved") }
                .joined(separator: "\n")
        }
        let tone = try PlaybackLevelTests.tone(pulse, seconds: 60, amplitude: 0.2, name: "tone")
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        let changes = Self.listen(music)
        try music.setCategory(.playback)
        try music.setActive(true)
        let player = try AudioPlayer(contentsOf: tone, session: music, endpoint: .soundServer(pulse.server))
        try player.play()
        func sink() -> String? { (try? pulse.ownStream(of: "music"))?.sink }
        func route() -> String? { music.currentRoute.outputs.first?.uid }
        #expect(eventually { sink() == "speaker" }, "\(kind)")

        // An HDMI output appears; the default stays the speaker (switch-on-connect leaves HDMI
        // alone): the default wins over "last in wins" (RT13 a).
        let hdmi = try pulse.load(sink: "hdmi", "device.form_factor=tv")
        #expect(eventually { backend.pluggedAccessories["hdmi"] != nil })
        usleep(500_000)
        #expect(sink() == "speaker" && route() == "built-in-speaker", "\(kind): \(String(describing: sink()))")
        // The user makes HDMI the default in the sound settings: followed (override); and back.
        try pulse.pactl(["set-default-sink", "hdmi"])
        #expect(changes.saw(.override, to: "hdmi"), "\(kind): \(changes.items.withLock { $0 })\n\(trail())")
        #expect(eventually { sink() == "hdmi" }, "\(kind)")
        try pulse.pactl(["set-default-sink", "speaker"])
        #expect(changes.saw(.override, to: "built-in-speaker"), "\(kind): \(changes.items.withLock { $0 })\n\(trail())")
        #expect(eventually { sink() == "speaker" }, "\(kind)")
        // A USB output plugged: the server makes it the default (switch-on-connect), followed; the
        // user sets the speaker again, and a USB output plugged without switch-on-connect does not take it.
        let usb = try pulse.load(sink: "usb", "device.bus=usb")
        #expect(eventually { sink() == "usb" && route() == "usb" }, "\(kind)")
        try pulse.pactl(["set-default-sink", "speaker"])
        #expect(eventually { sink() == "speaker" && route() == "built-in-speaker" }, "\(kind)")
        try pulse.unloadModule(named: "module-switch-on-connect")
        let dock = try pulse.load(sink: "dock", "device.bus=usb")
        #expect(eventually { backend.pluggedAccessories["dock"] != nil })
        usleep(500_000)
        #expect(sink() == "speaker" && route() == "built-in-speaker", "\(kind): \(String(describing: sink()))")
        try pulse.unload(usb)

        // The user moves the stream to HDMI in a mixer: it stays there, and the app's route says so (RT13 b).
        try pulse.moveByHand(try pulse.sinkInput(of: "music"), to: "hdmi") { sink() }
        #expect(changes.saw(.override, to: "hdmi"), "\(kind): \(changes.items.withLock { $0 })\n\(trail())")
        usleep(1_000_000)
        #expect(sink() == "hdmi" && route() == "hdmi", "\(kind): moved back to \(String(describing: sink()))\n\(trail())")
        // A new default does not take what the user moved by hand.
        try pulse.pactl(["set-default-sink", "dock"])
        usleep(1_000_000)
        #expect(sink() == "hdmi" && route() == "hdmi", "\(kind)")

        // RT10 and our own moves: a second app, mixable, shows the owner's output (music, moved by
        // hand to HDMI): the daemon moves its stream there — and that is not the user's choice:
        // once music no longer owns the route, it follows the default (dock) again.
        let nav = AudioSession(appID: "nav", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try nav.setCategory(.playback, options: [.mixWithOthers])
        try nav.setActive(true)
        let prompt = try AudioPlayer(contentsOf: tone, session: nav, endpoint: .soundServer(pulse.server))
        try prompt.play()
        #expect(eventually { (try? pulse.ownStream(of: "nav"))?.sink == "hdmi" }, "\(kind): RT10, the owner's output\n\(trail())")
        player.pause()
        try music.setActive(false)
        #expect(
            eventually { (try? pulse.ownStream(of: "nav"))?.sink == "dock" }, "\(kind): our move taken for the user's\n\(trail())"
        )
        #expect(nav.currentRoute.outputs.first?.uid == "dock")
        prompt.stop()
        nav.close()
        try music.setActive(true)
        try player.play()
        #expect(route() == "hdmi", "\(kind): the choice is the app's, active or not")

        // The chosen device goes away: the default output again (oldDeviceUnavailable).
        try pulse.unload(hdmi)
        #expect(changes.saw(.oldDeviceUnavailable, to: "dock"), "\(kind): \(changes.items.withLock { $0 })\n\(trail())")
        #expect(eventually { sink() == "dock" }, "\(kind)")

        // A category that cannot use the chosen output (record-only) ends the choice. (A new
        // stream: PipeWire 0.3.65 no longer moves one whose hand-chosen device went away.) The old
        // stream gone first: while the server still listed it, it was the app's first stream, and
        // it — not the new one — was moved by hand below (twice on PipeWire, in full runs).
        player.stop()
        #expect(eventually { (try? pulse.ownStream(of: "music")) ?? nil == nil }, "\(kind): stop() leaves no stream\n\(trail())")
        let again = try AudioPlayer(contentsOf: tone, session: music, endpoint: .soundServer(pulse.server))
        try again.play()
        #expect(eventually { sink() == "dock" }, "\(kind)")
        try pulse.moveByHand(try pulse.sinkInput(of: "music"), to: "speaker") { sink() }
        #expect(eventually { route() == "built-in-speaker" }, "\(kind)\n\(trail())")
        try music.setCategory(.record)
        try music.setCategory(.playback)
        #expect(route() == "dock", "\(kind): the choice outlived a record-only category")
        again.stop()
        player.stop()
        music.close()
        try pulse.unload(dock)
        #expect(arbiter.engine.invariantViolations.isEmpty)
    }

    @Test(
        "A player (mpv through the bridge): the default output wins over a device plugged later; moved by hand, it stays and its app's route says so; unplugged, the default again",
        arguments: ServerKind.allCases)
    func player(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let mpv = try desktop.mpv()
        func route() -> String? { (try? desktop.snapshot().apps.first { $0.player != nil })?.route.outputs.first?.uid }
        func sink() -> String? { desktop.streamSink(of: mpv.pid) }
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        #expect(eventually { sink() == "speaker" }, "\(kind)")
        // HDMI plugged, the default stays the speaker: so does mpv; the user makes HDMI the default, and back.
        let hdmi = try desktop.server.load(sink: "hdmi", "device.form_factor=tv")
        usleep(1_000_000)
        #expect(sink() == "speaker" && route() == "built-in-speaker", "\(kind): last in wins no more")
        try desktop.server.pactl(["set-default-sink", "hdmi"])
        #expect(eventually { sink() == "hdmi" && route() == "hdmi" }, "\(kind): the user's new default")
        try desktop.server.pactl(["set-default-sink", "speaker"])
        #expect(eventually { sink() == "speaker" && route() == "built-in-speaker" }, "\(kind): the user's default")
        // The daemon's own move to the new default, asked a moment after the route changed, lands
        // first: a move by hand in that moment may be undone on PipeWire, which may tell nothing of
        // the user's move before ours lands over it (no event; the daemon's poll is once a second).
        usleep(1_500_000)
        // Moved by hand: never moved back; the app's route says so.
        let index = try #require(desktop.streamBlock(of: mpv.pid)?.split(separator: "\n").first.map(String.init))
        try desktop.server.moveByHand(index, to: "hdmi") { sink() }
        #expect(
            eventually { route() == "hdmi" },
            "\(kind): \(desktop.daemon.log.split(separator: "\n").filter { $0.contains("RT13") || $0.contains("moved") })")
        usleep(1_500_000)
        #expect(sink() == "hdmi" && route() == "hdmi", "\(kind): moved back to \(String(describing: sink()))")
        #expect(desktop.status(mpv.name) == "Playing")
        try desktop.server.unload(hdmi)
        #expect(eventually { sink() == "speaker" && route() == "built-in-speaker" }, "\(kind)")
    }
}

extension PulseFixture {
    /// A stream moved in a mixer, as a user does it: again when the server dropped the move
    /// (PipeWire 0.3.65 with WirePlumber 0.4 may ignore a move made while it relinks the stream
    /// after its device went away: the user would move it again).
    func moveByHand(_ index: String, to sink: String, where current: () -> String?) throws {
        for _ in 0..<3 {
            try pactl(["move-sink-input", index, sink])
            if eventually(within: 2, { current() == sink }) { return }
        }
    }

    /// Unloads a module by its name (the first loaded so).
    func unloadModule(named name: String) throws {
        let line = try pactl(["list", "short", "modules"]).split(separator: "\n").first {
            $0.split(separator: "\t").dropFirst().first == Substring(name)
        }
        guard let index = line?.split(separator: "\t").first else { throw StartError(description: "no module \(name)") }
        try unload(String(index))
    }

    /// The sink-input index of an app's own stream.
    func sinkInput(of app: String) throws -> String {
        let block = try pactl(["list", "sink-inputs"]).components(separatedBy: "Sink Input #").dropFirst()
            .first { $0.contains("audiosession.app = \"\(app)\"") }
        guard let index = block?.split(separator: "\n").first else { throw StartError(description: "no stream of \(app)") }
        return String(index)
    }
}

extension PlayersBridgeTests.Desktop {
    /// The sink the stream of a process plays on, by name.
    func streamSink(of pid: pid_t) -> String? {
        guard let block = streamBlock(of: pid), let sinks = try? server.names(of: "sinks") else { return nil }
        for line in block.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Sink:") { return sinks[text.dropFirst(5).trimmingCharacters(in: .whitespaces)] }
        }
        return nil
    }
}
