import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SPEC EN2: AVAudioFile reads and writes through the one sound-file seam; bad files are errors
/// naming the file and why, never a crash.
@Suite("AVAudioFile (EN2)", .serialized)
struct AVAudioFileTests {
    @Test(
        "Written from buffers (CAF float, WAV 16-bit, FLAC), read back: the same samples (16-bit: within a step), length and position as written"
    )
    func writesAndReadsBack() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let tone = AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 0.25, channels: 2)
        for (name, settings, tolerance) in [
            (
                "a.caf",
                [
                    AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2,
                    AVLinearPCMIsFloatKey: true, AVLinearPCMBitDepthKey: 32,
                ] as [String: Any], Float(0)
            ),
            (
                "b.wav",
                [
                    AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2,
                    AVLinearPCMBitDepthKey: 16,
                ], Float(1.0 / 32_768)
            ),
            (
                "c.flac", [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2],
                Float(1.0 / 32_768)
            ),
        ] {
            let url = URL(fileURLWithPath: "\(fixture.directory)/\(name)")
            do {
                let file = try AVAudioFile(forWriting: url, settings: settings)
                #expect(file.processingFormat.isStandard && file.processingFormat.channelCount == 2)
                try file.write(from: tone)
                try file.write(from: tone)
                #expect(file.length == 24_000 && file.framePosition == 24_000)
            }
            let file = try AVAudioFile(forReading: url)
            #expect(file.length == 24_000, "\(name): \(file.length)")
            #expect(file.fileFormat.sampleRate == 48_000 && file.fileFormat.channelCount == 2)
            let back = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 10_000)!
            try file.read(into: back)
            #expect(back.frameLength == 10_000 && file.framePosition == 10_000)
            var worst: Float = 0
            for channel in 0..<2 {
                for frame in 0..<10_000 {
                    worst = max(worst, abs(back.floatChannelData![channel][frame] - tone.floatChannelData![channel][frame]))
                }
            }
            #expect(worst <= tolerance + 1e-6, "\(name): off by \(worst)")
            file.framePosition = 23_990
            try file.read(into: back)
            #expect(back.frameLength == 10, "\(name): the end reads what is left")
            try file.read(into: back)
            #expect(back.frameLength == 0, "\(name): after the end, nothing")
        }
    }

    @Test("Int16 interleaved processing format on request; a truncated file reads what it holds")
    func commonFormatAndTruncated() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let path = try fixture.tone(seconds: 1, amplitude: 0.5)
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: path), commonFormat: .pcmFormatInt16, interleaved: true)
        #expect(file.processingFormat.commonFormat == .pcmFormatInt16 && file.processingFormat.isInterleaved)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4_800)!
        try file.read(into: buffer)
        #expect(buffer.int16ChannelData != nil && buffer.floatChannelData == nil)
        let peak = (0..<4_800).map { abs(Int(buffer.int16ChannelData![0][$0])) }.max() ?? 0
        #expect(abs(peak - 16_384) < 40, "peak \(peak)")

        // A file cut short after its header was written: it says 48,000 frames and holds fewer.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = "\(fixture.directory)/cut.wav"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let truncated = try AVAudioFile(forReading: URL(fileURLWithPath: cut))
        let all = AVAudioPCMBuffer(pcmFormat: truncated.processingFormat, frameCapacity: 48_000)!
        try truncated.read(into: all)
        #expect(all.frameLength > 20_000 && all.frameLength < 48_000, "read \(all.frameLength) of a header's \(truncated.length)")
    }

    @Test(
        "Bad input: a missing file ('wht?'), a text file ('typ?'), a URL that is no file, settings it cannot write ('fmt?'), a buffer of another format (-50) — each names the file or the setting"
    )
    func badInput() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        func code(_ body: () throws -> Void) -> (Int, String) {
            do {
                try body()
                return (0, "")
            } catch {
                return ((error as NSError).code, (error as NSError).localizedDescription)
            }
        }
        var (status, message) = code { _ = try AVAudioFile(forReading: URL(fileURLWithPath: "/nonexistent/x.wav")) }
        #expect(status == 0x7768_743F && message.contains("/nonexistent/x.wav"), "\(status) \(message)")
        let text = "\(fixture.directory)/notes.wav"
        try Data("not a sound".utf8).write(to: URL(fileURLWithPath: text))
        (status, message) = code { _ = try AVAudioFile(forReading: URL(fileURLWithPath: text)) }
        #expect(status == 0x7479_703F && message.contains("notes.wav"), "\(status) \(message)")
        (status, _) = code { _ = try AVAudioFile(forReading: URL(string: "https://example.com/a.wav")!) }
        #expect(status == 0x7768_743F)
        (status, message) = code {
            _ = try AVAudioFile(
                forWriting: URL(fileURLWithPath: "\(fixture.directory)/x.wav"),
                settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 12])
        }
        #expect(status == 0x666D_743F && message.contains("AVNumberOfChannelsKey"), "\(status) \(message)")
        let file = try AVAudioFile(
            forWriting: URL(fileURLWithPath: "\(fixture.directory)/y.caf"),
            settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 1])
        (status, message) = code {
            try file.write(from: AVAudioEngineTests.sine(440, amplitude: 0.1, seconds: 0.1, rate: 44_100))
        }
        #expect(status == -50 && message.contains("44100"), "\(status) \(message)")
    }

    @Test("EN2, EN4: an AVAudioFile written from a tap on the input node reads back the tap's samples")
    func writtenFromATap() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.recorder"))
        try session.setCategory(.record)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let format = engine.inputNode.outputFormat(forBus: 0)
        let url = URL(fileURLWithPath: "\(fixture.directory)/tap.caf")
        let file = try AVAudioFile(forWriting: url, settings: format.settings)
        let kept = Mutex<[Float]>([])
        engine.inputNode.installTap(onBus: 0, bufferSize: 2_048, format: format) { buffer, _ in
            try? file.write(from: buffer)
            kept.withLock { $0 += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)) }
        }
        try engine.start()
        #expect(eventually { kept.withLock { $0.count } >= 20_480 })
        engine.inputNode.removeTap(onBus: 0)
        engine.stop()
        file.close()
        let read = try AVAudioFile(forReading: url)
        let back = AVAudioPCMBuffer(pcmFormat: read.processingFormat, frameCapacity: AVAudioFrameCount(read.length))!
        try read.read(into: back)
        let samples = kept.withLock { $0 }
        #expect(Int(back.frameLength) == samples.count)
        #expect((0..<samples.count).allSatisfy { back.floatChannelData![0][$0] == samples[$0] }, "the same samples")
    }

    @Test(
        "EN4: scheduleFile plays a 3-second file whole, decoded as it plays, then a buffer scheduled after it; scheduleSegment plays its part; each handler once, in order"
    )
    func scheduleFileAndSegment() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.file"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: try fixture.tone(seconds: 3, amplitude: 0.5)))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        let order = Mutex<[String]>([])
        player.scheduleFile(file, at: nil) { order.withLock { $0.append("file") } }
        player.scheduleSegment(file, startingFrame: 48_000, frameCount: 24_000, at: nil) {
            order.withLock { $0.append("segment") }
        }
        player.scheduleBuffer(AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 0.25)) {
            order.withLock { $0.append("buffer") }
        }
        try engine.start()
        player.play()
        #expect(eventually(8) { order.withLock { $0.count } == 3 })
        Thread.sleep(forTimeInterval: 0.1)
        engine.stop()
        #expect(order.withLock { $0 } == ["file", "segment", "buffer"])
        #expect(file.framePosition == 0, "the app's AVAudioFile keeps its position")
        let rendered = try fixture.rendered("engine.file", port: "built-in-speaker")
        // From the first sound to the last: every frame of the three, once, without a gap.
        let first = rendered.samples.firstIndex { abs($0) > 0.001 } ?? 0
        let last = rendered.samples.lastIndex { abs($0) > 0.001 } ?? 0
        #expect(abs(last - first + 1 - 180_000) < 50, "\(last - first + 1) frames of 180000")
        let longestQuiet = rendered.samples[first...last].split { abs($0) > 0.001 }.map(\.count).max() ?? 0
        #expect(longestQuiet < 5, "no gap: \(longestQuiet) quiet frames in a row")
    }

    @Test("EN4: stop() drops a file still being fed and calls its handler once; nothing of it plays after")
    func stopDropsAFile() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.file.stop"))
        try session.setCategory(.playback)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: try fixture.tone(seconds: 10, amplitude: 0.5)))
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        let calls = Mutex(0)
        player.scheduleFile(file, at: nil) { calls.withLock { $0 += 1 } }
        try engine.start()
        player.play()
        Thread.sleep(forTimeInterval: 0.3)
        player.stop()
        #expect(eventually { calls.withLock { $0 } == 1 })
        let frames = try fixture.rendered("engine.file.stop", port: "built-in-speaker").samples.filter { abs($0) > 0.001 }.count
        Thread.sleep(forTimeInterval: 0.3)
        engine.stop()
        #expect(calls.withLock { $0 } == 1)
        let after = try fixture.rendered("engine.file.stop", port: "built-in-speaker").samples.filter { abs($0) > 0.001 }.count
        #expect(after - frames < 2_400, "nothing after the stop: \(frames) then \(after)")
    }
}
