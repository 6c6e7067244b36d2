import AVFAudio
import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

@testable import PulseBackend

/// EN7 and HW1 on real servers: a plugged sound card that runs at its own rate (a PipeWire node)
/// makes the route's rate that rate — a USB DAC at 44.1 kHz under an engine playing at 48 kHz is
/// a configuration change; one at 48 kHz is only a route change. A PulseAudio sink takes its
/// streams' rate instead.
@Suite("AVAudioEngine and a real sink's rate (EN7, HW1)", .serialized)
struct AVAudioEngineRateTests {
    @Test(
        "EN7, HW1: a USB sink at 44.1 kHz plugged under a running engine: on PipeWire the session's rate is 44100, ConfigurationChange posted off the main queue, the engine stopped, started again it renders at 44.1 kHz, and a 48 kHz sink then is no configuration change; on PulseAudio the sink takes the engine's rate and nothing changes",
        arguments: ServerKind.allCases)
    func realSinkRate(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let (session, engine, player) = try AVAudioEngineServerTests.loopingTone(arbiter, pulse)
        let changes = Mutex<[Bool]>([])  // each posting: on the main thread?
        let observer = NotificationCenter.default.addObserver(
            forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil
        ) { _ in changes.withLock { $0.append(Thread.isMainThread) } }
        defer { NotificationCenter.default.removeObserver(observer) }
        try engine.start()
        player.play()
        #expect(eventually { (try? pulse.ownStream(of: "engine")) != nil }, "\(kind): playing")
        #expect(session.sampleRate == 48_000, "\(kind): the speaker's rate, \(session.sampleRate)")

        let dac = try pulse.load(sink: "dac", "device.bus=usb", rate: 44_100)
        #expect(eventually { session.currentRoute.outputs.first?.uid == "dac" }, "\(kind): on the DAC")
        guard kind == .pipewire else {
            // PulseAudio runs an idle sink at its streams' rate (its default and alternate rates):
            // the DAC takes the engine's 48 kHz, no configuration change, the engine plays on.
            usleep(300_000)
            #expect(session.sampleRate == 48_000 && changes.withLock { $0.isEmpty } && engine.isRunning)
            #expect(
                eventually {
                    (try? pulse.pactl(["list", "sinks", "short"]))?.contains("dac\tmodule-null-sink.c\ts16le 2ch 48000Hz") == true
                })
            return engine.stop()
        }
        #expect(
            eventually { session.sampleRate == 44_100 },
            "the DAC's own rate (HW1): \(session.sampleRate); \((try? pulse.pactl(["list", "sinks", "short"])) ?? "")")
        #expect(eventually { changes.withLock { $0.count } == 1 }, "\(changes.withLock { $0.count }) changes posted")
        #expect(changes.withLock { $0 }.allSatisfy { !$0 }, "off the main queue")
        #expect(eventually { !engine.isRunning }, "the engine stopped itself")

        // Output only: started again it plays on, its stream now at the DAC's rate.
        try engine.start()
        #expect(player.isPlaying, "the player node plays on")
        // (Its stream at 44.1 kHz is what is checked: PipeWire 0.3.65 does not clock a null sink
        // made at another rate than its graph's — paplay to it is not heard on its monitor either.)
        #expect(
            eventually { (try? pulse.pactl(["list", "sink-inputs", "short"]))?.contains("float32le 2ch 44100Hz") == true },
            "its stream at 44.1 kHz: \((try? pulse.pactl(["list", "sink-inputs", "short"])) ?? "")")

        // A route change that keeps the formats is not a configuration change (EN7).
        try pulse.pactl(["unload-module", dac])
        #expect(eventually { session.sampleRate == 48_000 }, "back on the speaker")
        #expect(eventually { changes.withLock { $0.count } == 2 }, "leaving the DAC changes the rate again")
        try engine.start()
        _ = try pulse.load(sink: "dac48", "device.bus=usb", rate: 48_000)
        #expect(
            eventually { session.currentRoute.outputs.first?.uid == "dac48" },
            "on the 48 kHz DAC: \(session.currentRoute.outputs.map(\.uid))")
        usleep(300_000)
        #expect(changes.withLock { $0.count } == 2, "no configuration change at the same rate")
        #expect(engine.isRunning, "plays on")
        engine.stop()
        #expect(arbiter.engine.invariantViolations.isEmpty)
    }
}
