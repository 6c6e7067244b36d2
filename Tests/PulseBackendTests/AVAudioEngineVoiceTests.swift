import AVFAudio
import AudioSession
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

@testable import PulseBackend

/// SPEC EN8 on a real PulseAudio that has an echo canceller, as a desktop's has (its default.pa
/// loads module-filter-heuristics, which turns a phone stream's `filter.want=echo-cancel` into a
/// request, and module-filter-apply, which loads module-echo-cancel for the pair). The room: the
/// speaker's sound reaches the microphone through the air — a loopback from the speaker's monitor
/// into a second sink, whose monitor is the microphone. (The fixture's own microphone is the
/// speaker's monitor itself; module-echo-cancel over that loop of one sink wedges PulseAudio 16,
/// seen here, so this suite builds its room with a loopback.)
///
/// PipeWire has no echo canceller unless one is configured (its echo-cancel module is not loaded
/// by default); there the engine's voice processing is the plain path (docs/behaviour.md EN8), so
/// this suite runs on PulseAudio only.
@Suite("AVAudioEngine's voice processing on a real echo canceller (EN8)", .serialized)
struct AVAudioEngineVoiceTests {
    /// What the engine's input tap heard of its own 1 kHz tone, played through its output, over
    /// the last second of `seconds`: the Goertzel power at 1 kHz.
    static func echo(voiceProcessing: Bool, _ pulse: PulseFixture, _ arbiter: Arbiter, seconds: Double) throws -> Double {
        let softphone = AVAudioSession(
            wrapping: AudioSession(
                appID: voiceProcessing ? "softphone" : "plain", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        try softphone.setCategory(.playAndRecord, mode: .voiceChat, options: [.defaultToSpeaker])
        let engine = AVAudioEngine(session: softphone, endpoint: .soundServer(pulse.server))
        try engine.inputNode.setVoiceProcessingEnabled(voiceProcessing)
        #expect(engine.outputNode.isVoiceProcessingEnabled == voiceProcessing, "EN8: the switch reaches the output node")
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let tone = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 48_000)!
        tone.frameLength = 48_000
        for frame in 0..<48_000 {
            tone.floatChannelData![0][frame] = 0.5 * Float(sin(2 * Double.pi * 1_000 * Double(frame) / 48_000))
        }
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        player.scheduleBuffer(tone, at: nil, options: .loops)
        let input = engine.inputNode.outputFormat(forBus: 0)
        let heard = Mutex<[Float]>([])
        engine.inputNode.installTap(onBus: 0, bufferSize: 4_800, format: input) { buffer, _ in
            let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            heard.withLock { $0 += samples }
        }
        try engine.start()
        player.play()
        defer { engine.stop() }
        let wanted = Int(seconds * input.sampleRate)
        #expect(
            eventually(within: seconds + 5) { heard.withLock { $0.count } >= wanted },
            "heard \(heard.withLock { $0.count }) samples")
        if voiceProcessing {
            let modules = try pulse.pactl(["list", "short", "modules"])
            #expect(modules.contains("module-echo-cancel"), "the server loaded its echo canceller for the pair: \(modules)")
        }
        let last = heard.withLock { Array($0.suffix(Int(input.sampleRate))) }
        return AVAudioPlayerServerTests.power(of: 1_000, in: last, rate: input.sampleRate)
    }

    @Test(
        "EN8: with voice processing the engine's own tone, heard by the microphone through the room, is cancelled from its input (≥ 20 dB below the same graph without it)"
    )
    func echoCancelled() throws {
        let pulse = try PulseFixture(.pulseaudio)
        defer { pulse.stop() }
        try pulse.pactl(["load-module", "module-null-sink", "sink_name=room"])
        try pulse.pactl([
            "load-module", "module-remap-source", "master=room.monitor", "source_name=roommic",
            "source_properties=device.form_factor=internal",
        ])
        try pulse.pactl(["load-module", "module-loopback", "source=speaker.monitor", "sink=room", "latency_msec=20"])
        try pulse.pactl(["load-module", "module-filter-heuristics"])
        try pulse.pactl(["load-module", "module-filter-apply"])
        // module-switch-on-connect made the room the default output as it appeared: the speaker is.
        try pulse.pactl(["set-default-sink", "speaker"])
        try pulse.pactl(["set-default-source", "roommic"])
        let arbiter = try Arbiter(
            configuration: .init(profile: .desktop, permissionPolicy: .grant), logger: RealServerTests.quiet)
        let backend = PulseBackend(arbiter: arbiter, server: pulse.server, logger: RealServerTests.quiet)
        defer { backend.close() }

        let plain = try Self.echo(voiceProcessing: false, pulse, arbiter, seconds: 3)
        #expect(plain > 0, "the microphone hears the speaker through the room")
        let processed = try Self.echo(voiceProcessing: true, pulse, arbiter, seconds: 5)
        let attenuation = 10 * log10(plain / max(processed, .leastNonzeroMagnitude))
        #expect(
            attenuation >= 20, "EN8: the echo is \(attenuation) dB lower with voice processing (power \(plain) → \(processed))")
        #expect(arbiter.engine.invariantViolations.isEmpty)
    }
}
