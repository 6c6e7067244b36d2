import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Testing

/// SPEC SO8: the formats apps ship — AAC in `.m4a`, `.mp4` and ADTS, Apple Lossless, MP3, IMA4 in
/// CAF — made by another program (ffmpeg) from a 440 Hz tone at −6 dBFS, read back through the
/// one sound-file seam (FFmpeg's decoders where libsndfile has none): length, rate, tone and level.
@Suite("The formats apps ship (SO8)")
struct CodecFileTests {
    /// Runs ffmpeg quietly; its exit status.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The tone (2 s, mono, 48 kHz) encoded by ffmpeg into `name` with `codec`.
    static func encoded(_ fixture: MediaFixture, _ name: String, codec: [String], seconds: Double = 2) throws -> String {
        let wav = try fixture.tone(seconds: seconds, amplitude: 0.5, name: "source-\(name).wav")
        let path = "\(fixture.directory)/\(name)"
        let status = try ffmpeg(["-i", wav] + codec + [path])
        #expect(status == 0, "ffmpeg made \(name)")
        return path
    }

    /// The power of one frequency (Goertzel).
    static func power(of frequency: Double, in samples: ArraySlice<Float>, rate: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
        var (previous, beforePrevious) = (0.0, 0.0)
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            (beforePrevious, previous) = (previous, current)
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    @Test(
        "SO8: AAC (.m4a, .mp4, ADTS .aac), Apple Lossless (.m4a), MP3 and IMA4 (.caf) made by ffmpeg read through AVAudioFile: rate, length within 50 ms, 440 Hz at −6 dBFS ± 1 dB",
        arguments: [
            ("tone.m4a", ["-c:a", "aac", "-b:a", "128k"]), ("tone.mp4", ["-c:a", "aac"]), ("tone.aac", ["-c:a", "aac"]),
            ("lossless.m4a", ["-c:a", "alac"]), ("tone.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]),
            ("ima4.caf", ["-c:a", "adpcm_ima_qt"]),
        ])
    func readsWhatAppsShip(_ name: String, _ codec: [String]) throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let path = try Self.encoded(fixture, name, codec: codec)
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: path))
        #expect(file.fileFormat.sampleRate == 48_000, "\(name): \(file.fileFormat)")
        #expect(file.fileFormat.channelCount == 1)
        #expect(abs(Double(file.length) / 48_000 - 2) < 0.05, "\(name): \(file.length) frames")
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 48_000 * 3)!
        try file.read(into: buffer)
        #expect(abs(Double(buffer.frameLength) / 48_000 - 2) < 0.05, "\(name): read \(buffer.frameLength) frames")
        let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        let middle = Array(samples)[24_000..<72_000]
        let level = Level.dBFS(middle)
        #expect(abs(level - 20 * log10(0.5)) < 1, "\(name): decoded at \(level) dBFS")
        let tone = Self.power(of: 440, in: middle, rate: 48_000)
        let beside = max(Self.power(of: 330, in: middle, rate: 48_000), Self.power(of: 550, in: middle, rate: 48_000))
        #expect(tone > 100 * beside, "\(name): 440 Hz \(tone), beside \(beside)")

        // Seeking: a second in, the tone goes on from there.
        file.framePosition = 48_000
        let rest = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 48_000 * 3)!
        try file.read(into: rest)
        #expect(abs(Double(rest.frameLength) - 48_000) < 2_400, "\(name): \(rest.frameLength) frames after a second")
    }

    @Test("SO8, SO2: AVAudioPlayer plays an AAC .m4a on the simulated device at its level; its duration is the file's")
    func playerPlaysAAC() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let path = try Self.encoded(fixture, "voice.m4a", codec: ["-c:a", "aac", "-b:a", "96k"], seconds: 1)
        let session = AVAudioSession(wrapping: fixture.session("messenger"))
        try session.setCategory(.playback)
        let player = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: path), session: session, endpoint: fixture.endpoint)
        #expect(abs(player.duration - 1) < 0.05, "duration \(player.duration)")
        #expect(player.play())
        #expect(eventually(5) { !player.isPlaying }, "played to its end")
        let rendered = try fixture.rendered("messenger", port: "built-in-speaker")
        let loud = rendered.samples.filter { abs($0) > 0.01 }.count
        #expect(abs(Double(loud) / Double(rendered.sampleRate * rendered.channels) - 1) < 0.1, "heard for about a second")
        // Its steady middle at the tone's level (AAC's pre-echo makes the first moment's peak higher).
        let middle = rendered.samples[(rendered.samples.count / 4)..<(rendered.samples.count / 4 + rendered.sampleRate / 4)]
        #expect(abs(Level.dBFS(middle) - 20 * log10(0.5)) < 1, "heard at \(Level.dBFS(middle)) dBFS")
    }

    @Test(
        "Bad input (SO8): a video-only .mp4, a truncated .m4a and an MP3 with a broken frame — an error naming the file, or what it holds, never a crash"
    )
    func badInput() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        // Video only: no sound in it.
        let video = "\(fixture.directory)/video.mp4"
        #expect(try Self.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x64:d=1", "-c:v", "mpeg4", video]) == 0)
        do {
            _ = try AVAudioFile(forReading: URL(fileURLWithPath: video))
            Issue.record("a video-only file opened as sound")
        } catch {
            let message = (error as NSError).localizedDescription
            #expect(message.contains("video.mp4") && message.contains("no sound"), "\(message)")
        }
        // Truncated: the container's index (at its end) is gone, or the sound stops short.
        let whole = try Self.encoded(fixture, "long.m4a", codec: ["-c:a", "aac"], seconds: 4)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = "\(fixture.directory)/cut.m4a"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        do {
            let file = try AVAudioFile(forReading: URL(fileURLWithPath: cut))
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 48_000 * 5)!
            try file.read(into: buffer)
            #expect(buffer.frameLength < 48_000 * 4, "a cut file reads what it holds: \(buffer.frameLength)")
        } catch {
            #expect((error as NSError).localizedDescription.contains("cut.m4a"), "\(error)")
        }
        // An MP3 with bytes overwritten in its middle: decoded on past the broken frame.
        let mp3 = try Self.encoded(fixture, "broken.mp3", codec: ["-c:a", "libmp3lame"], seconds: 2)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        for index in (bytes.count / 2)..<(bytes.count / 2 + 400) { bytes[index] = 0xAB }
        try Data(bytes).write(to: URL(fileURLWithPath: mp3))
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: mp3))
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 48_000 * 3)!
        try file.read(into: buffer)
        #expect(buffer.frameLength > 48_000, "read past the broken frame: \(buffer.frameLength)")
    }
}
