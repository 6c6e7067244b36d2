import AVFAudio
import AudioSession
import AudioSessionRuntime
import AudioSessionSound
import Foundation
import Logging
import Synchronization

/// SPEC §20 measured (issue 56): AVAudioEngine's latencies on a real server, 50 rounds each, beside
/// the sound server's own tools in the same run —
/// - `playerNode.play()` on a running engine → its first sample on the default sink's monitor,
///   beside `paplay` started → its first sample;
/// - a tone starting on the speaker (which the microphone hears: the benchmark's microphone is the
///   speaker's monitor) → the first tap buffer holding it, beside `parecord` started at the same
///   moment → its first bytes holding it.
enum EngineLatencyBench {
    static func run(address: String) throws {
        let arbiter = try Arbiter(
            configuration: .init(profile: .desktop, permissionPolicy: .grant),
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let session = AVAudioSession(
            wrapping: AudioSession(appID: "engine-bench", capabilities: .backgroundAudio, transport: .inProcess(arbiter)))
        try session.setCategory(.playAndRecord, mode: .default, options: [.mixWithOthers, .defaultToSpeaker])
        let directory = NSTemporaryDirectory() + "pulse-bench-engine-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tone = directory + "/tone.wav"
        try PlayerBench.write(seconds: 1, channels: 1, rate: 48_000, to: tone, format: .wav16)
        let meter = try LevelMeter(server: address, source: "@DEFAULT_MONITOR@")
        defer { meter.stop() }

        // play() → first sample: a running engine whose player node holds a second of the tone.
        let engine = AVAudioEngine(session: session, endpoint: .soundServer(address))
        let player = AVAudioPlayerNode()
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 48_000)!
        buffer.frameLength = 48_000
        for frame in 0..<48_000 {
            buffer.floatChannelData![0][frame] = 0.5 * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
        }
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.start()
        var ours = Rounds(name: "AVAudioPlayerNode.play() → first sample on the monitor")
        var theirs = Rounds(name: "paplay started → first sample on the monitor        ")
        for _ in 0..<50 {
            player.scheduleBuffer(buffer, at: nil, options: .interrupts)
            let start = DispatchTime.now().uptimeNanoseconds
            player.play()
            guard let heard = meter.firstSound(above: -20, within: 3) else { fail("the player node was not heard") }
            ours.samples.append(heard - start)
            player.stop()
            PlayerBench.waitForSilence(meter)
            theirs.samples.append(PlayerBench.paplayRound(tone, meter, address))
        }
        print(ours.summary + PlayerBench.p99(ours))
        print(theirs.summary + PlayerBench.p99(theirs))

        // Input → tap: the tap's first buffer above −20 dBFS after the tone starts on the speaker.
        // (The input is part of the graph from its start: the engine is started again with the tap.)
        engine.stop()
        let loud = Mutex<UInt64?>(nil)
        engine.inputNode.installTap(onBus: 0, bufferSize: 480, format: nil) { buffer, _ in
            let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            if LevelMeter.dBFS(samples[...]) > -20 {
                let now = DispatchTime.now().uptimeNanoseconds
                loud.withLock { if $0 == nil { $0 = now } }
            }
        }
        try engine.start()
        var tapped = Rounds(name: "tone on the speaker → the input tap's first buffer holding it")
        for _ in 0..<50 {
            loud.withLock { $0 = nil }
            let start = DispatchTime.now().uptimeNanoseconds
            player.scheduleBuffer(buffer, at: nil, options: .interrupts)
            player.play()
            let deadline = start + 3_000_000_000
            while loud.withLock({ $0 }) == nil, DispatchTime.now().uptimeNanoseconds < deadline { usleep(500) }
            guard let heard = loud.withLock({ $0 }) else { fail("the tap did not hear the tone") }
            tapped.samples.append(heard - start)
            player.stop()
            PlayerBench.waitForSilence(meter)
        }
        engine.inputNode.removeTap(onBus: 0)
        print(tapped.summary + PlayerBench.p99(tapped))

        // parecord, already recording, the same tone started the same way.
        var recorded = Rounds(name: "tone on the speaker → parecord's first bytes holding it      ")
        for _ in 0..<50 {
            let parecord = Process()
            parecord.executableURL = URL(fileURLWithPath: "/usr/bin/parecord")
            parecord.arguments = ["--raw", "--format=s16le", "--channels=1", "--rate=48000", "--latency-msec=10"]
            parecord.environment = ["PULSE_SERVER": address]
            let pipe = Pipe()
            parecord.standardOutput = pipe
            try parecord.run()
            let reader = pipe.fileHandleForReading
            let until = DispatchTime.now().uptimeNanoseconds + 300_000_000
            while DispatchTime.now().uptimeNanoseconds < until { _ = reader.availableData }  // running, drained
            let start = DispatchTime.now().uptimeNanoseconds
            player.scheduleBuffer(buffer, at: nil, options: .interrupts)
            player.play()
            var heard: UInt64?
            while heard == nil, DispatchTime.now().uptimeNanoseconds < start + 3_000_000_000 {
                let data = reader.availableData
                let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Float($0) / 32_768 }
                if !samples.isEmpty, LevelMeter.dBFS(samples[...]) > -20 { heard = DispatchTime.now().uptimeNanoseconds }
            }
            parecord.terminate()
            parecord.waitUntilExit()
            guard let heard else { fail("parecord did not hear the tone") }
            recorded.samples.append(heard - start)
            player.stop()
            PlayerBench.waitForSilence(meter)
        }
        engine.stop()
        print(recorded.summary + PlayerBench.p99(recorded))
    }
}
