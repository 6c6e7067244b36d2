import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Synchronization
import Testing

/// SO2's cost on a sound server: `AudioPlayer` is fed as the server asks, seconds ahead of what
/// is heard. What it changes of its own sound is still heard at once (what is buffered is written
/// again), `currentTime` is the frame heard, and `.finished` comes when the end is heard — each
/// measured on the sink's monitor, on PulseAudio and on PipeWire.
@Suite("A player seconds ahead of what is heard (SO2)", .serialized)
struct WriteAheadServerTests {
    /// Seconds since `start` (a monotonic time in nanoseconds).
    static func since(_ start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// A music app's session (playback) and its player of a 440 Hz tone at −6 dBFS, `seconds`
    /// long, on the fixture's server.
    static func player(of seconds: Double, _ pulse: PulseFixture, _ arbiter: Arbiter) throws -> (AudioSession, AudioPlayer) {
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try music.setCategory(.playback)
        let player = try AudioPlayer(
            contentsOf: PlaybackLevelTests.tone(pulse, seconds: seconds, amplitude: 0.5, name: "tone"), session: music,
            endpoint: .soundServer(pulse.server))
        return (music, player)
    }

    @Test(
        "Its own volume heard within 100 ms, currentTime the frame heard, a seek heard at once, .finished when the end is heard",
        arguments: ServerKind.allCases)
    func heardAtOnce(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let monitor = try pulse.recordMonitor(of: "speaker")
        defer { monitor.stop() }
        let (music, player) = try Self.player(of: 4, pulse, arbiter)
        defer { music.close() }
        let finished = Mutex<UInt64?>(nil)
        player.eventHandler = { event in
            if event == .finished { finished.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
        }
        try player.play()
        let first = try #require(monitor.firstSound(above: -20, within: 3), "\(kind): the tone was not heard")
        usleep(600_000)
        let heardFor = Self.since(first)
        #expect(abs(player.currentTime - heardFor) < 0.1, "\(kind): currentTime \(player.currentTime) s, heard for \(heardFor) s")
        let full = monitor.level(over: 0.2)

        player.volume = 0.1  // 20 dB down: heard within 100 ms, not after the seconds written
        usleep(100_000)
        let quieter = monitor.level(over: 0.2)
        #expect(abs(quieter - full + 20) < 1.5, "\(kind): \(quieter - full) dB 100 ms after volume 0.1 (\(full) dBFS before)")

        player.volume = 1
        player.currentTime = 3  // a second left: heard from there at once, and the end a second later
        let seeked = DispatchTime.now().uptimeNanoseconds
        #expect(abs(player.currentTime - 3) < 0.1, "\(kind): currentTime \(player.currentTime) s right after the seek to 3 s")
        let back = monitor.level(over: 0.2)
        #expect(abs(back - full) < 1.5, "\(kind): \(back) dBFS after volume 1 and the seek (\(full) before)")
        #expect(eventually(within: 3) { finished.withLock { $0 } != nil }, "\(kind): no .finished")
        let end = finished.withLock { $0 }.map { Double($0 - seeked) / 1e9 } ?? 0
        #expect(abs(end - 1) < 0.15, "\(kind): .finished \(end) s after the seek to a second before the end")
        // (The monitor hears a little after the sink plays: PipeWire's some 20 ms; nothing after that.)
        let after = monitor.settleToSilence(within: 0.3, window: 0.1)
        #expect(after < -60, "\(kind): \(after) dBFS after .finished")
        #expect(!player.isPlaying)
    }
}

extension WriteAheadServerTests {
    /// Found in the demo (`scripts/demo-pulse` waited for `.finished` for good): around a cork
    /// the server's clock may stand short of the end by more than its sink says it holds.
    @Test(
        "Paused and played again three times (corks and uncorks): .finished comes when the end is heard",
        arguments: ServerKind.allCases)
    func pausedAndPlayedAgain(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let (music, player) = try Self.player(of: 2, pulse, arbiter)
        defer { music.close() }
        let finished = Mutex(false)
        player.eventHandler = { event in if event == .finished { finished.withLock { $0 = true } } }
        for _ in 0..<3 {
            try player.play()
            usleep(300_000)
            player.pause()
            usleep(200_000)
        }
        try player.play()
        #expect(eventually(within: 3) { finished.withLock { $0 } }, "\(kind): no .finished, currentTime \(player.currentTime)")
    }

    /// AVAudioPlayer meters only with `isMeteringEnabled` (measuring every block cost CPU):
    /// turned on while seconds are written ahead unmeasured, its meters read the sound at once.
    @Test("Metering turned on while playing: the meters read what is heard within 200 ms", arguments: ServerKind.allCases)
    func meteringTurnedOn(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let (music, player) = try Self.player(of: 4, pulse, arbiter)
        defer { music.close() }
        player.isMetering = false
        try player.play()
        usleep(500_000)
        #expect(player.takeLevels().first?.peak == -160, "\(kind): metered with metering off")
        player.isMetering = true
        usleep(200_000)
        let peak = player.takeLevels().first?.peak ?? -160
        #expect(abs(peak - 20 * log10(0.5)) < 1, "\(kind): peak \(peak) dBFS 200 ms after metering was turned on (−6.02)")
        player.stop()
    }

    /// The server's buffer is 2 s and the stream starts once it is full; a shorter sound is told to
    /// start when its end is written (else it would wait for good).
    @Test("A sound shorter than the server's buffer (0.4 s) is heard and .finished comes", arguments: ServerKind.allCases)
    func shorterThanTheBuffer(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let monitor = try pulse.recordMonitor(of: "speaker")
        defer { monitor.stop() }
        let (music, player) = try Self.player(of: 0.4, pulse, arbiter)
        defer { music.close() }
        let finished = Mutex<UInt64?>(nil)
        player.eventHandler = { event in
            if event == .finished { finished.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        try player.play()
        #expect(monitor.firstSound(above: -20, within: 1) != nil, "\(kind): the 0.4 s tone was not heard within a second")
        #expect(eventually(within: 2) { finished.withLock { $0 } != nil }, "\(kind): no .finished")
        let after = finished.withLock { $0 }.map { Double($0 - started) / 1e9 } ?? 0
        #expect(after > 0.35 && after < 1, "\(kind): .finished \(after) s after play() of a 0.4 s sound")
    }

    /// What made the player cost 2× paplay's CPU: asked to adjust the latency, the server ran its
    /// sink 0.1 s ahead and woke the player's client library every 95 ms. Now the sink's latency
    /// is its own, as paplay's is. (On PulseAudio: PipeWire's graph runs at its quantum whatever a
    /// stream asks.)
    @Test("Fed as the server asks: PulseAudio's sink keeps its own latency while the player plays alone")
    func sinkKeepsItsLatency() throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(.pulseaudio)
        defer { backend.close(); pulse.stop() }
        let (music, player) = try Self.player(of: 4, pulse, arbiter)
        defer { music.close() }
        try player.play()
        usleep(500_000)
        let sinks = try pulse.pactl(["list", "sinks"])
        let configured = sinks.split(separator: "\n").first { $0.contains("Latency:") }.flatMap { line in
            line.split(separator: "configured ").last.flatMap { Int($0.split(separator: " ").first ?? "") }
        }
        player.stop()
        let microseconds = try #require(configured, "no configured latency in: \(sinks)")
        #expect(microseconds >= 500_000, "the sink runs \(microseconds) µs ahead with the player alone on it")
    }
}
