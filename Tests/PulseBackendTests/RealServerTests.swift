import AudioSession
import AudioSessionEngine
import AudioSessionRuntime
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import PulseBackend

/// Issue 6 against real, headless servers — PulseAudio 16 and PipeWire 0.3 (pipewire-pulse):
/// their devices plug and unplug session ports (RT11), their streams are other audio.
@Suite("PulseAudio devices as session ports", .serialized)
struct RealServerTests {
    /// Notifications of a session, waited for with a bound.
    final class Heard: Sendable {
        let items = Mutex<[SessionNotification]>([])

        init(_ session: AudioSession) {
            session.addNotificationHandler { [self] notification in items.withLock { $0.append(notification) } }
        }

        func routeChange(_ reason: RouteChangeReason, within seconds: Double = 10) -> (previous: Route, current: Route)? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let found = items.withLock { items -> (Route, Route)? in
                    guard
                        let index = items.firstIndex(where: {
                            if case .routeChange(reason, _, _) = $0 { true } else { false }
                        })
                    else { return nil }
                    guard case .routeChange(_, let previous, let current) = items.remove(at: index) else { return nil }
                    return (previous, current)
                }
                if let found { return found }
                usleep(5_000)
            }
            return nil
        }
    }

    @Test(
        "§9.1: the built-in microphone is a port only while the server has an internal microphone (no phantom port)",
        arguments: ServerKind.allCases)
    func noPhantomMicrophone(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        func builtIn() -> Bool { arbiter.deviceStatus.inputs.contains { $0.type == .microphoneBuiltIn } }
        #expect(eventually { builtIn() }, "the fixture's mic (form factor internal) is the built-in microphone")
        try pulse.pactl(["unload-module", "module-remap-source"])
        #expect(
            eventually { !builtIn() }, "\(kind): no internal microphone, no MicrophoneBuiltIn: \(arbiter.deviceStatus.inputs)")
        _ = try pulse.load(source: "internal", "device.form_factor=internal")
        #expect(eventually { builtIn() }, "\(kind): an internal microphone again")
        #expect(backend.builtIns.microphone == "internal")
    }

    @Test(
        "Headphones and a headset microphone appear and go: route changes with the sink and source names as UIDs",
        arguments: ServerKind.allCases)
    func plugAndUnplug(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let session = AudioSession(appID: "music", transport: .inProcess(arbiter))
        let heard = Heard(session)
        try session.setCategory(.playAndRecord)
        try session.setActive(true)
        // The internal devices stand for the built-in ports, known before the backend's init returns.
        #expect(backend.builtIns.speaker == "speaker")
        #expect(backend.builtIns.microphone == "mic")

        // The server makes the headphones its default output (switch-on-connect, as desktops do):
        // the route follows the user's choice (RT13, reason override), not the plug itself.
        let phones = try pulse.load(sink: "phones", "device.form_factor=headphone")
        let plugged = heard.routeChange(.override)
        #expect(plugged?.current.outputs.map(\.uid) == ["phones"])
        #expect(plugged?.current.outputs.map(\.type) == [.headphones])
        let mic = try pulse.load(source: "headset-mic", "device.form_factor=headset")
        #expect(heard.routeChange(.newDeviceAvailable)?.current.inputs.map(\.type) == [.microphoneWired])
        #expect(backend.pluggedAccessories == ["phones": .headphones, "headset-mic": .wiredMicrophone])

        try pulse.unload(phones)
        let unplugged = heard.routeChange(.oldDeviceUnavailable)
        #expect(unplugged?.previous.outputs.map(\.uid) == ["phones"])
        #expect(unplugged?.current.outputs.map(\.type) == [.speaker])
        try pulse.unload(mic)
        #expect(heard.routeChange(.oldDeviceUnavailable)?.current.inputs.map(\.type) == [.microphoneBuiltIn])
        #expect(backend.pluggedAccessories.isEmpty)
        #expect(arbiter.engine.invariantViolations.isEmpty)
        session.close()
    }

    @Test(
        "A foreign stream is other audio: counted (OA1), ducked by duckOthers (D1), muted while a non-mixable session plays (OA2)",
        arguments: ServerKind.allCases)
    func foreignStream(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        try navigation.setCategory(.playback, options: .duckOthers)
        #expect(try !music.status().isOtherAudioPlaying)

        let player = try pulse.play(role: "music")
        defer { PulseFixture.end(player) }
        #expect(eventually { (try? music.status().isOtherAudioPlaying) == true }, "OA1: the foreign stream plays")
        #expect(eventually { (try? pulse.streams().first?.decibels) == 0 })
        // Other audio, not an app: listed with its role, never among the apps nor the route's owner.
        let other = arbiter.deviceStatus.otherAudio
        #expect(other.count == 1 && other.first?.audio.id.hasPrefix("pulse:") == true && other.first?.audio.role == "music")
        #expect(arbiter.engine.apps == ["music", "navigation"])

        try navigation.setActive(true)  // D1: others duck to 0.2 → 20·log10(0.2) = −13.98 dB
        #expect(
            eventually { (try? pulse.streams().first?.decibels).flatMap { $0.map { abs($0 - 20 * log10(0.2)) <= 0.5 } } == true },
            "ducked: \(String(describing: try? pulse.streams()))")
        try navigation.setActive(false)
        #expect(eventually { (try? pulse.streams().first?.decibels) == 0 }, "back at its own volume")

        try music.setActive(true)
        try music.reportOutputRunning(true)  // OA2: a non-mixable session plays
        #expect(eventually { (try? pulse.streams().first?.muted) == true }, "muted while music plays")
        try music.reportOutputRunning(false)
        try music.setActive(false)
        #expect(eventually { (try? pulse.streams().first?.muted) == false }, "unmuted when music stops")
        #expect(arbiter.engine.invariantViolations.isEmpty)
        music.close()
        navigation.close()
    }

    @Test(
        "Ducks stay out of the saved per-role volumes: a stream starting while its role is ducked is ducked once and comes back whole",
        arguments: ServerKind.allCases)
    func duckingDoesNotLeakIntoRestore(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        try navigation.setCategory(.playback, options: .duckOthers)
        let ducked = 20 * log10(0.2)
        func levels() -> [Double?] { ((try? pulse.streams()) ?? []).map(\.decibels) }
        func near(_ value: Double?, _ target: Double) -> Bool { value.map { abs($0 - target) <= 0.5 } ?? false }

        let first = try pulse.play(role: "music")
        defer { PulseFixture.end(first) }
        #expect(eventually { backend.foreignStreams.count == 1 })
        try navigation.setActive(true)
        #expect(eventually { levels().count == 1 && near(levels()[0], ducked) }, "\(levels())")
        let second = try pulse.play(role: "music")  // may start at the ducked volume the server saved
        defer { PulseFixture.end(second) }
        #expect(eventually { levels().count == 2 && near(levels()[1], ducked) }, "ducked once, not twice: \(levels())")
        try navigation.setActive(false)
        #expect(
            eventually { levels().count == 2 && near(levels()[0], 0) && near(levels()[1], 0) }, "both whole again: \(levels())")
        let third = try pulse.play(role: "music")
        defer { PulseFixture.end(third) }
        #expect(eventually { levels().count == 3 }, "\(levels())")
        #expect(eventually { near(levels()[2], 0) }, "a new stream of the role does not start ducked: \(levels())")
        navigation.close()
    }

    @Test(
        "The default sink's volume is the output volume: apps read it and hear of its changes (HW7)",
        arguments: ServerKind.allCases)
    func outputVolumeFollowsTheSink(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let music = AudioSession(appID: "music", transport: .inProcess(arbiter))
        let heard = Heard(music)
        try music.setCategory(.playback)
        try pulse.pactl(["set-sink-volume", "speaker", "50%"])
        #expect(
            eventually { (try? music.status().outputVolume) == 0.5 }, "\(String(describing: try? music.status().outputVolume))")
        #expect(eventually { heard.items.withLock { $0.contains(.outputVolume(0.5)) } })
        try pulse.pactl(["set-sink-volume", "speaker", "150%"])  // beyond 100%: the slider is at its top
        #expect(eventually { (try? music.status().outputVolume) == 1 })
        try music.setActive(true)  // a step: the boost is not written back down to 100%
        usleep(200_000)
        #expect(try pulse.volume(of: "sink", "speaker") == 98_304)

        // `system volume 0.3` from a controller sets the sink; its echo tells nobody again.
        #expect(arbiter.report(.outputVolume(0.3)) == nil)
        #expect(eventually { (try? pulse.volume(of: "sink", "speaker")) == 19_661 }, "\(kind): the sink at 30%")
        usleep(300_000)
        #expect(
            heard.items.withLock { $0.filter { if case .outputVolume = $0 { true } else { false } } }
                == [.outputVolume(0.5), .outputVolume(1), .outputVolume(0.3)])

        // The user's balance is kept: a write scales the channels together.
        try pulse.pactl(["set-sink-volume", "speaker", "100%", "50%"])
        #expect(eventually { (try? music.status().outputVolume) == 1 })
        #expect(arbiter.report(.outputVolume(0.5)) == nil)
        #expect(
            eventually { (try? pulse.channelVolumes(of: "sink", "speaker")) == [32_768, 16_384] },
            "\(kind): \(String(describing: try? pulse.channelVolumes(of: "sink", "speaker")))")
        music.close()
    }

    @Test(
        "HW7: the output volume is the volume of the sink the routing owner's route uses, not always the default sink's",
        arguments: ServerKind.allCases)
    func outputVolumeFollowsTheRoute(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        try music.setActive(true)
        try pulse.pactl(["set-sink-volume", "speaker", "50%"])
        #expect(eventually { (try? music.status().outputVolume) == 0.5 })
        // Headphones come (RT3: the route moves to them): their volume is the output volume.
        let headphones = try pulse.load(sink: "headphones", "device.form_factor=headphone")
        #expect(eventually { music.currentRoute.outputs.first?.uid == "headphones" })
        try pulse.pactl(["set-sink-volume", "headphones", "30%"])
        #expect(
            eventually { abs(((try? music.status().outputVolume) ?? 0) - 0.3) < 0.001 },
            "\(kind): \(String(describing: try? music.status().outputVolume))")
        // A controller's volume sets the headphones; the speaker keeps the user's 50%.
        #expect(arbiter.report(.outputVolume(0.4)) == nil)
        #expect(eventually { (try? pulse.volume(of: "sink", "headphones")) == 26_214 }, "\(kind): the headphones at 40%")
        usleep(200_000)
        #expect(try pulse.volume(of: "sink", "speaker") == 32_768, "\(kind): the speaker was left alone")
        // A mixer moving the speaker (not on the route) changes nothing the apps read.
        try pulse.pactl(["set-sink-volume", "speaker", "70%"])
        usleep(300_000)
        #expect(abs(try music.status().outputVolume - 0.4) < 0.001)
        // The headphones go: the route is the speaker again, and so is the volume.
        try pulse.unload(headphones)
        #expect(
            eventually { abs(((try? music.status().outputVolume) ?? 0) - 0.7) < 0.001 }, "\(kind): back to the speaker's volume")
        #expect(try pulse.volume(of: "sink", "speaker") == 45_875)
        music.close()
    }

    @Test("An input port's gain is its source's volume, both ways (HW6)", arguments: ServerKind.allCases)
    func inputGainIsTheSourceVolume(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let memo = AudioSession(appID: "memo", transport: .inProcess(arbiter))
        try memo.setCategory(.playAndRecord)
        try memo.setActive(true)
        func near(_ gain: Double) -> Bool { abs(memo.inputGain - gain) < 0.001 }
        // The built-in microphone (the fixture's source `mic`), set on the server.
        try pulse.pactl(["set-source-volume", "mic", "60%"])
        #expect(eventually { near(0.6) }, "\(kind): the built-in microphone's gain \(memo.inputGain)")
        let headset = try pulse.load(source: "headset-mic", "device.form_factor=headset")
        #expect(eventually { memo.currentRoute.inputs.first?.uid == "headset-mic" })
        // The new port's gain is what the server gives its source: 100% on PulseAudio; PipeWire's
        // session manager restores the last source volume onto it a moment after it appears.
        usleep(300_000)
        let given = Double(try pulse.volume(of: "source", "headset-mic") ?? 0) / 65_536
        #expect(eventually { near(given) }, "\(kind): the source at \(given), the port's gain \(memo.inputGain)")
        // An app sets it: the source follows.
        try memo.setInputGain(0.25)
        #expect(eventually { (try? pulse.volume(of: "source", "headset-mic")) == 16_384 }, "\(kind): the source at 25%")
        // A mixer sets the source: the port's gain follows, 150% reads as 1.
        try pulse.pactl(["set-source-volume", "headset-mic", "40%"])
        #expect(eventually { near(0.4) }, "\(kind): \(memo.inputGain)")
        try pulse.pactl(["set-source-volume", "headset-mic", "150%"])
        #expect(eventually { near(1) }, "\(kind): \(memo.inputGain)")
        try pulse.unload(headset)
        #expect(eventually { memo.currentRoute.inputs.first?.type == .microphoneBuiltIn })
        #expect(near(0.6))
        let mic = try pulse.volume(of: "source", "mic")
        // Untouched by all this.
        #expect(mic == 39_321, "\(kind): the built-in microphone's source at \(String(describing: mic))")
        memo.close()
    }

    @Test(
        "A foreign stream with media.role=phone is a call: sessions are interrupted until it ends (I4)",
        arguments: ServerKind.allCases)
    func phoneStream(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try Self.start(kind)
        defer { backend.close(); pulse.stop() }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        try music.setActive(true)
        let call = try pulse.play(role: "phone")
        #expect(eventually { (try? music.status().isInterrupted) == true }, "interrupted by the call")
        #expect(arbiter.engine.deviceStatus.systemSessions == [.call])
        PulseFixture.end(call)
        #expect(eventually { arbiter.engine.deviceStatus.systemSessions.isEmpty }, "the call ended with its stream")
        #expect(try !music.status().isInterrupted)
        music.close()
    }

    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// A server of the kind, an arbiter on a desktop profile and the backend between them; the
    /// backend's log (debug and up) into `log` when one is given.
    static func start(_ kind: ServerKind, log: InMemoryLogHandler? = nil) throws -> (PulseFixture, Arbiter, PulseBackend) {
        let pulse = try PulseFixture(kind)
        do {
            let arbiter = try Arbiter(configuration: .init(profile: .desktop), logger: quiet)
            var logger = quiet
            if let log {
                logger = Logger(label: "test") { _ in log }
                logger.logLevel = .debug
            }
            return (pulse, arbiter, PulseBackend(arbiter: arbiter, server: pulse.server, logger: logger))
        } catch {
            pulse.stop()
            throw error
        }
    }

    /// Waits (bounded) until the condition holds.
    func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("MS3: no server: the backend starts anyway, media services are lost, and the warning names the server")
    func noServer() {
        let arbiter = try! Arbiter(configuration: .init(), logger: Self.quiet)
        let log = InMemoryLogHandler()
        let backend = PulseBackend(
            arbiter: arbiter, server: "unix:/nonexistent/native", logger: Logger(label: "test") { _ in log })
        defer { backend.close() }
        #expect(backend.lostSince != nil && arbiter.engine.mediaServicesLost)
        let warning = log.entries.first { $0.message.description.contains("cannot reach the sound server") }
        #expect(warning?.metadata["server"]?.description == "unix:/nonexistent/native", "\(log.entries)")
    }
}
