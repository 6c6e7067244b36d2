import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Testing

/// SPEC SO8: AVAudioRecorder writes AAC (`.m4a`, `.mp4`, `.aac`) and Apple Lossless (`.m4a`,
/// `.caf`) — the simulated microphone's 440 Hz tone at −12 dBFS, recorded for about a second and
/// read back by another program (ffprobe: codec and length) and by AVAudioFile (tone and level).
@Suite("Compressed recordings (SO8)", .serialized)
struct EncodedRecordingTests {
    /// ffprobe's codec name and duration of a file's first audio stream.
    static func probe(_ path: String) throws -> (codec: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name:format=duration", "-of",
            "default=noprint_wrappers=1", path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return (fields["codec_name"] ?? "?", Double(fields["duration"] ?? "") ?? -1)
    }

    @Test(
        "SO8: AAC into .m4a, .mp4 and .aac and Apple Lossless into .m4a and .caf: ffprobe reads the codec and a length within 50 ms of what was recorded; read back here, the tone at 440 Hz and −12 dBFS ± 1 dB",
        arguments: [
            ("memo.m4a", kAudioFormatMPEG4AAC, "aac"), ("memo.mp4", kAudioFormatMPEG4AAC, "aac"),
            ("memo.aac", kAudioFormatMPEG4AAC, "aac"), ("lossless.m4a", kAudioFormatAppleLossless, "alac"),
            ("lossless.caf", kAudioFormatAppleLossless, "alac"),
        ])
    func recordsAndReadsBack(_ name: String, _ id: AudioFormatID, _ codec: String) throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("messenger"))
        try session.setCategory(.record)
        let url = URL(fileURLWithPath: "\(fixture.directory)/\(name)")
        let recorder = try AVAudioRecorder(
            url: url,
            settings: [
                AVFormatIDKey: id, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1, AVEncoderBitRateKey: 64_000,
                AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
                AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_VariableConstrained,
                AVSampleRateConverterAudioQualityKey: AVAudioQuality.max.rawValue,
            ], session: session, endpoint: fixture.endpoint)
        #expect(recorder.record())
        #expect(eventually { recorder.currentTime >= 1 })
        recorder.stop()
        let recorded = recorder.currentTime > 0 ? recorder.currentTime : 1
        let (probed, seconds) = try Self.probe(url.path)
        #expect(probed == codec, "\(name): ffprobe reads \(probed)")
        let file = try AVAudioFile(forReading: url)
        let frames = Double(file.length) / file.fileFormat.sampleRate
        // (ADTS has no length in it: ffprobe estimates one from the bit rate, so .aac is not compared.)
        #expect(abs(seconds - frames) < 0.05 || name.hasSuffix(".aac"), "\(name): ffprobe \(seconds) s, read \(frames) s")
        #expect(frames > 0.95 && frames < 1.5, "\(name): \(frames) s recorded (\(recorded))")
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length + 4_410))!
        try file.read(into: buffer)
        let samples = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
        let middle = samples[(samples.count / 4)..<(samples.count * 3 / 4)]
        #expect(abs(Level.dBFS(middle) - 20 * log10(0.25)) < 1, "\(name): \(Level.dBFS(middle)) dBFS")
        let rate = file.fileFormat.sampleRate
        let tone = CodecFileTests.power(of: 440, in: middle, rate: rate)
        let beside = max(
            CodecFileTests.power(of: 330, in: middle, rate: rate), CodecFileTests.power(of: 550, in: middle, rate: rate))
        #expect(tone > 100 * beside, "\(name): 440 Hz \(tone), beside \(beside)")
    }

    @Test(
        "SO8 bad input: a bit rate AAC refuses, a rate it is not encoded at, an unknown strategy, ALAC into .mp3 — 'fmt?' or 'typ?' naming the key"
    )
    func refused() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("messenger"))
        for (settings, name, code, words) in [
            ([AVFormatIDKey: kAudioFormatMPEG4AAC, AVEncoderBitRateKey: 4_000], "a.m4a", 0x666D_743F, "AVEncoderBitRateKey"),
            ([AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 37_000], "a.m4a", 0x666D_743F, "AVSampleRateKey"),
            ([AVFormatIDKey: kAudioFormatMPEG4AAC, AVEncoderBitRateStrategyKey: "fast"], "a.m4a", 0x666D_743F, "fast"),
            ([AVFormatIDKey: kAudioFormatAppleLossless], "a.mp3", 0x7479_703F, ".mp3"),
        ] as [([String: Any], String, Int, String)] {
            do {
                _ = try AVAudioRecorder(
                    url: URL(fileURLWithPath: "\(fixture.directory)/\(name)"), settings: settings, session: session)
                Issue.record("\(settings) accepted")
            } catch {
                let error = error as NSError
                #expect(error.code == code && error.localizedDescription.contains(words), "\(error)")
            }
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: fixture.directory))?.isEmpty == true, "nothing left")
    }
}
