import AudioSession
import AudioSessionMedia
import AudioSessionSound
import Foundation
import Synchronization
import Testing

/// SO2: what a player seconds ahead of what is heard sounds like, read afterwards sample by sample
/// from a recording of the sink's monitor: a volume change is heard from the frame `currentTime`
/// read (what was buffered is written again), and `.finished` comes after the whole sound (the
/// stream, closed at it, must not cut what the sink still held). The other server suites measure
/// levels over windows of time; this one places each change in the sound itself.
@Suite("A player's sound recorded from its sink (SO2)", .serialized)
struct WriteAheadRecordedTests {
    /// The sink's monitor recorded in 10 ms fragments on a thread of its own until `stop()`. (In
    /// 1 s fragments, PulseAudio's recording lost what its sink took back to play a stream that
    /// joined or changed — a second of the tone missing — so it cannot place a change.)
    final class Recording: Sendable {
        private let input: Mutex<PulseInput?>
        private let samples = Mutex<[Float]>([])
        private let running = Atomic<Bool>(true)
        private let done = DispatchSemaphore(value: 0)

        init(_ pulse: PulseFixture) throws {
            input = Mutex(
                try PulseInput(
                    server: pulse.server, app: nil, channels: 1, sampleRate: 48_000, bufferDuration: 0.01,
                    device: "speaker.monitor"))
            DispatchQueue(label: "monitor-recording").async { [self] in
                while running.load(ordering: .acquiring) {
                    let got = input.withLock { $0?.read() ?? [] }
                    samples.withLock { $0 += got }
                    usleep(20_000)
                }
                done.signal()
            }
        }

        /// Stops and returns every sample recorded.
        func stop() -> [Float] {
            if running.exchange(false, ordering: .acquiringAndReleasing) { done.wait() }
            let rest = input.withLock { input in
                defer { input = nil }
                return input?.read() ?? []
            }
            return samples.withLock { $0 + rest }
        }
    }

    /// dBFS (of a sine) of each 10 ms window at 48 kHz.
    static func levels(_ samples: [Float]) -> [Double] {
        stride(from: 0, to: samples.count - 479, by: 480).map { LevelMeter.dBFS(samples[$0..<$0 + 480]) }
    }

    @Test(
        "A volume change heard from the frame currentTime read, the whole sound heard before .finished",
        arguments: ServerKind.allCases)
    func placedInTheSound(_ kind: ServerKind) throws {
        let (pulse, arbiter, backend) = try RealServerTests.start(kind)
        defer { backend.close(); pulse.stop() }
        let recording = try Recording(pulse)
        if kind == .pulseaudio {  // an idle null sink renders 2 s of silence ahead: restarted at the recording's latency
            _ = try pulse.pactl(["suspend-sink", "speaker", "1"])
            _ = try pulse.pactl(["suspend-sink", "speaker", "0"])
        }
        let (music, player) = try WriteAheadServerTests.player(of: 3, pulse, arbiter)
        defer { music.close() }
        player.isMetering = false
        let finished = Mutex<UInt64?>(nil)
        player.eventHandler = { event in
            if event == .finished { finished.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        try player.play()
        usleep(1_200_000)
        let changedAt = player.currentTime
        player.volume = 0.1  // 20 dB down from the frame heard now, not from the seconds written
        #expect(eventually(within: 5) { finished.withLock { $0 } != nil }, "\(kind): no .finished")
        let finishedAfter = finished.withLock { $0 }.map { Double($0 - started) / 1e9 } ?? 0
        usleep(200_000)  // what the monitor still had
        let levels = Self.levels(recording.stop())

        let onset = try #require(levels.firstIndex { $0 > -20 }, "\(kind): the tone was not heard")
        let drop = try #require(levels[onset...].firstIndex { $0 < -16 }, "\(kind): the volume change was not heard")
        let last = try #require(levels.lastIndex { $0 > -40 })
        let droppedAt = Double(drop - onset) / 100
        let heardFor = Double(last - onset + 1) / 100
        print(
            "\(kind): volume set at currentTime \(changedAt) s, heard from \(droppedAt) s of the sound; "
                + "sound heard for \(heardFor) s; .finished \(finishedAfter) s after play()")
        #expect(abs(droppedAt - changedAt) < 0.15, "\(kind): set at \(changedAt) s, heard from \(droppedAt) s of the sound")
        #expect(abs(heardFor - 3) < 0.05, "\(kind): the 3 s sound was heard for \(heardFor) s")
        #expect(finishedAfter > 2.95, "\(kind): .finished \(finishedAfter) s after play(), before the 3 s sound could end")
    }
}
