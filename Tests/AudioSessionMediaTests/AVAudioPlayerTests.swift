import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SO2 embedded: Apple's AVAudioPlayer over the one playback path, rendered by the simulated
/// device (one file per output port, times the session's gain).
@Suite("AVAudioPlayer (SO2) on the simulated device", .serialized)
struct AVAudioPlayerTests {
    /// What a delegate heard, and whether each call came on the main thread.
    final class Heard: NSObject, AVAudioPlayerDelegate, AVAudioRecorderDelegate, @unchecked Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        /// The main queue, known by a value set on it (with dispatchMain, as Swift's async main on
        /// Linux runs, the main queue's work may run on another thread than the first).
        static let mainKey: DispatchSpecificKey<String> = {
            let key = DispatchSpecificKey<String>()
            DispatchQueue.main.setSpecific(key: key, value: "main")
            return key
        }()

        override init() {
            _ = Self.mainKey
            super.init()
        }

        private func note(_ line: String) {
            let onMain = DispatchQueue.getSpecific(key: Self.mainKey) == "main"
            lines.withLock { $0.append(line + (onMain ? "" : " (not main)")) }
        }

        func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) { note("finished \(flag)") }
        func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {
            note("decode error \((error as NSError?)?.domain ?? "-")")
        }
        func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {
            note("begin playing=\(player.isPlaying) time>0=\(player.currentTime > 0)")
        }
        func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) { note("end \(flags)") }
        func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
            note("recorded \(flag)")
        }
        func audioRecorderBeginInterruption(_ recorder: AVAudioRecorder) { note("recorder begin \(recorder.isRecording)") }
        func audioRecorderEndInterruption(_ recorder: AVAudioRecorder, withOptions flags: Int) { note("recorder end \(flags)") }
    }

    @Test("SO2: heard at its level, DidFinishPlaying on the main queue; metering within 1 dB; stop keeps the position")
    func playsAndFinishes() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("music"))
        try session.setCategory(.playback)
        let player = try AVAudioPlayer(
            contentsOf: URL(fileURLWithPath: try fixture.tone(seconds: 0.6, amplitude: 0.5)), session: session,
            endpoint: fixture.endpoint)
        let heard = Heard()
        player.delegate = heard
        player.isMeteringEnabled = true
        #expect(player.numberOfChannels == 1 && abs(player.duration - 0.6) < 0.001)
        #expect(player.play())
        #expect(session.session.isActive, "IO1: play() activates the session")
        #expect(eventually { player.currentTime > 0.2 })
        player.updateMeters()
        #expect(abs(Double(player.averagePower(forChannel: 0)) - 20 * log10(0.5)) < 1, "\(player.averagePower(forChannel: 0))")
        #expect(abs(Double(player.peakPower(forChannel: 0)) - 20 * log10(0.5)) < 1)
        #expect(player.averagePower(forChannel: 1) == -160)
        #expect(eventually { heard.all == ["finished true"] }, "\(heard.all)")
        #expect(!player.isPlaying)
        let rendered = try fixture.rendered("music", port: "built-in-speaker")
        #expect(rendered.frames == 28_800, "every frame once: \(rendered.frames)")
        #expect(abs(Level.dBFS(rendered.samples[...]) - 20 * log10(0.5)) < 0.1)

        // stop() keeps the position (AVAudioPlayer's; never deactivates the session).
        #expect(player.play())
        #expect(eventually { player.currentTime > 0.1 })
        player.stop()
        let kept = player.currentTime
        #expect(kept > 0.1 && !player.isPlaying)
        #expect(session.session.isActive)
        player.currentTime = 0.5
        #expect(abs(player.currentTime - 0.5) < 0.001)
    }

    @Test(
        "SO2, I1, I3: a call pauses it (BeginInterruption, isPlaying false, position kept); play() during the call is false; the end reactivates the session and says shouldResume; nothing plays until play()"
    )
    func interruption() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("music"))
        try session.setCategory(.playback)
        let player = try AVAudioPlayer(
            contentsOf: URL(fileURLWithPath: try fixture.tone(seconds: 5)), session: session, endpoint: fixture.endpoint)
        let heard = Heard()
        player.delegate = heard
        #expect(player.play())
        #expect(eventually { player.currentTime > 0.1 })
        fixture.system(.systemSession(.call, begin: true))
        #expect(eventually { heard.all == ["begin playing=false time>0=true"] }, "\(heard.all)")
        let pausedAt = player.currentTime
        #expect(!player.play(), "A3: refused during the call")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(player.currentTime == pausedAt, "nothing played during the call")
        fixture.system(.systemSession(.call, begin: false))
        #expect(eventually { heard.all.count == 2 }, "\(heard.all)")
        #expect(heard.all.last == "end 1", "EndInterruption with .shouldResume on the main queue: \(heard.all)")
        #expect(session.session.isActive, "reactivated for it before EndInterruption (the seeds)")
        #expect(!player.isPlaying)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(player.currentTime == pausedAt, "it does not resume by itself")
        #expect(player.play())
        #expect(eventually { player.currentTime > pausedAt + 0.05 })
        player.stop()
    }

    @Test("SO2: numberOfLoops, rate, pan and a volume fade shape what is rendered")
    func loopsRatePanVolume() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        // A stereo tone: pan moves it to one side.
        let mono = MediaFixture.sine(seconds: 0.3, amplitude: 0.5, sampleRate: 48_000)
        let stereo = SampleBuffer(samples: mono.samples.flatMap { [$0, $0] }, channels: 2, sampleRate: 48_000)
        let path = "\(fixture.directory)/stereo.wav"
        try SoundFile.write(stereo, to: path)
        let session = AVAudioSession(wrapping: fixture.session("music"))
        try session.setCategory(.playback)

        let looped = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: path), session: session, endpoint: fixture.endpoint)
        let heard = Heard()
        looped.delegate = heard
        looped.numberOfLoops = 1
        looped.pan = -1
        #expect(looped.play())
        #expect(eventually { heard.all == ["finished true"] }, "\(heard.all)")
        var rendered = try fixture.rendered("music", port: "built-in-speaker")
        #expect(rendered.frames == 2 * 14_400, "played twice: \(rendered.frames)")
        let left = rendered.samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let right = rendered.samples.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(abs(Level.dBFS(left[...]) - 20 * log10(0.5)) < 0.1 && Level.peak(right[...]) == 0, "pan −1: left only")

        // rate 2: the same sound in half the time (0.15 s); the volume faded to 0 over its first 0.1 s.
        try FileManager.default.removeItem(atPath: "\(fixture.directory)/music.built-in-speaker.wav")
        let fast = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: path), session: session, endpoint: fixture.endpoint)
        fast.delegate = heard
        fast.enableRate = true
        fast.rate = 2
        fast.setVolume(0, fadeDuration: 0.1)
        #expect(fast.volume == 0, "volume reads what the app set")
        #expect(fast.play())
        #expect(eventually { heard.all.count == 2 }, "\(heard.all)")
        rendered = try fixture.rendered("music", port: "built-in-speaker")
        #expect(abs(rendered.frames - 7_200) <= 2, "rate 2: \(rendered.frames) frames")
        let head = rendered.samples[0..<960]
        let tail = rendered.samples[(rendered.samples.count - 960)...]
        #expect(Level.dBFS(head) > Level.dBFS(tail) + 10, "faded: \(Level.dBFS(head)) → \(Level.dBFS(tail))")
    }

    @Test(
        "SO2 bad input: a missing file, an empty one, text named .wav, a non-file URL — NSErrors saying which and why; a truncated file is a decode error"
    )
    func badInput() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("music"))
        try session.setCategory(.playback)
        func error(_ make: () throws -> AVAudioPlayer) -> NSError? {
            do {
                _ = try make()
                return nil
            } catch { return error as NSError }
        }
        let missing = error {
            try AVAudioPlayer(contentsOf: URL(fileURLWithPath: fixture.directory + "/none.wav"), session: session)
        }
        #expect(
            missing?.domain == NSOSStatusErrorDomain && missing?.code == 0x7768_743F
                && missing?.localizedDescription.contains("none.wav") == true)
        _ = FileManager.default.createFile(atPath: fixture.directory + "/empty.wav", contents: Data())
        try "not a sound".write(toFile: fixture.directory + "/text.wav", atomically: true, encoding: .utf8)
        for name in ["empty.wav", "text.wav"] {
            let refused = error {
                try AVAudioPlayer(contentsOf: URL(fileURLWithPath: fixture.directory + "/" + name), session: session)
            }
            #expect(
                refused?.code == 0x7479_703F && refused?.localizedDescription.contains(name) == true,
                "\(name): \(String(describing: refused))")
        }
        let web = error { try AVAudioPlayer(contentsOf: URL(string: "https://example.com/a.mp3")!, session: session) }
        #expect(web?.localizedDescription.contains("no file URL") == true)
        let fromData = try AVAudioPlayer(
            data: try Data(contentsOf: URL(fileURLWithPath: try fixture.tone(seconds: 0.2))), session: session)
        #expect(abs(fromData.duration - 0.2) < 0.001 && fromData.url == nil && fromData.data != nil)

        // A WAV whose header says more frames than it holds: libsndfile reads what it holds.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try fixture.tone(seconds: 1, name: "long.wav")))
        var lying = whole.prefix(whole.count / 2)
        lying.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(whole.count - 8).littleEndian) { Data($0) })
        if let chunk = lying.range(of: Data("data".utf8)) {
            lying.replaceSubrange(
                chunk.upperBound..<chunk.upperBound + 4, with: withUnsafeBytes(of: UInt32(whole.count).littleEndian) { Data($0) })
        }
        try lying.write(to: URL(fileURLWithPath: fixture.directory + "/lying.wav"))
        let short = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: fixture.directory + "/lying.wav"), session: session)
        #expect(short.duration < 0.55, "its duration is what it holds: \(short.duration)")

        // A file truncated while it plays: a decode error, not a finish.
        let path = try fixture.tone(seconds: 2, name: "truncated.wav")
        let truncated = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: path), session: session, endpoint: fixture.endpoint)
        let heard = Heard()
        truncated.delegate = heard
        #expect(truncated.play())
        #expect(eventually { truncated.currentTime > 0.1 })
        #expect(truncate(path, 20_000) == 0)
        #expect(eventually { !heard.all.isEmpty }, "\(heard.all)")
        #expect(heard.all == ["decode error \(NSOSStatusErrorDomain)"], "\(heard.all)")
        #expect(!truncated.isPlaying)
    }

    @Test(
        "SO3: a memo recorded from the microphone (length, level); DidFinishRecording; settings it cannot write refused with 'fmt?'"
    )
    func recorder() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("memo"))
        try session.setCategory(.record)
        let url = URL(fileURLWithPath: fixture.directory + "/memo.caf")
        let recorder = try AVAudioRecorder(
            url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000, AVNumberOfChannelsKey: 1],
            session: session, endpoint: fixture.endpoint)
        let heard = Heard()
        recorder.delegate = heard
        recorder.isMeteringEnabled = true
        #expect(recorder.record())
        #expect(eventually { recorder.currentTime > 0.3 })
        // Valid while it records: libsndfile reads what is there so far.
        let sofar = try SoundFile.read(url.path)
        #expect(sofar.sampleRate == 16_000 && sofar.frames > 3_000, "\(sofar.frames) frames so far")
        recorder.updateMeters()
        // The simulated microphone: a 440 Hz tone at −12 dBFS.
        #expect(
            abs(Double(recorder.averagePower(forChannel: 0)) - 20 * log10(0.25)) < 1, "\(recorder.averagePower(forChannel: 0))")
        recorder.stop()
        #expect(eventually { heard.all == ["recorded true"] }, "\(heard.all)")
        let memo = try SoundFile.read(url.path)
        #expect(abs(Level.dBFS(memo.samples[...]) - 20 * log10(0.25)) < 0.5)

        // record(forDuration:): finished by itself at that length.
        let timed = try AVAudioRecorder(
            url: URL(fileURLWithPath: fixture.directory + "/timed.wav"), settings: [AVSampleRateKey: 8_000],
            session: session, endpoint: fixture.endpoint)
        timed.delegate = heard
        #expect(timed.record(forDuration: 0.25))
        #expect(eventually { heard.all.count == 2 }, "\(heard.all)")
        #expect(try SoundFile.read(fixture.directory + "/timed.wav").frames == 2_000)

        for (settings, name, code) in [
            ([AVFormatIDKey: 0x6161_6320, AVEncoderBitRateKey: 2_000_000], "memo.m4a", 0x666D_743F),  // SO8: too high for AAC
            ([AVFormatIDKey: 0x6161_6320], "memo.wav", 0x7479_703F),  // SO8: AAC in a WAV
            ([AVFormatIDKey: 0x696D_6134], "memo.caf", 0x666D_743F),  // IMA4: read, not written
            ([AVNumberOfChannelsKey: 0], "memo.wav", 0x666D_743F),
            ([AVSampleRateKey: 0], "memo.wav", 0x666D_743F),
            ([:], "nowhere/memo.wav", 0x7768_743F),
        ] as [([String: Any], String, Int)] {
            do {
                _ = try AVAudioRecorder(
                    url: URL(fileURLWithPath: fixture.directory + "/" + name), settings: settings, session: session)
                Issue.record("\(settings) \(name) was accepted")
            } catch {
                let error = error as NSError
                #expect(error.domain == NSOSStatusErrorDomain && error.code == code, "\(name): \(error)")
            }
        }
    }
}
