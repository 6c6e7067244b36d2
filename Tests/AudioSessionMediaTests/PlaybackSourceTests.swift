import AudioSessionSound
import Foundation
import Testing

/// SO2: the playback path's block processing gives, sample for sample, what the file and the
/// player's settings say — across decoder reads (4,096 frames) and ticks of any size.
@Suite struct PlaybackSourceTests {
    let directory = NSTemporaryDirectory() + "playback-source-\(UUID().uuidString)"

    func rampFile(frames: Int) throws -> String { try Self.rampFile(frames: frames, in: directory) }

    /// A stereo float WAV of `frames` frames in `directory` whose every sample is different (left
    /// rises, right falls). WriteAheadTests' too.
    static func rampFile(frames: Int, in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/ramp.wav"
        var samples: [Float] = []
        for frame in 0..<frames {
            samples += [Float(frame) / Float(frames), -Float(frame) / Float(frames)]
        }
        try SoundFile.write(SampleBuffer(samples: samples, channels: 2, sampleRate: 48_000), to: path)
        return path
    }

    /// Everything the source gives, asked for in ticks of the sizes given, in turn.
    func drain(_ source: inout PlaybackSource, ticks: [Int]) -> [Float] {
        var out: [Float] = []
        var tick = 0
        while !source.isAtEnd {
            out += source.next(ticks[tick % ticks.count])
            tick += 1
        }
        return out
    }

    func file(_ path: String) throws -> [Float] {
        let reader = try SoundFileReader(path: path)
        return reader.read(reader.frames)
    }

    @Test("SO2: at the file's own pace every sample comes out as decoded, looped once, in ticks of any size")
    func ownPace() throws {
        let path = try rampFile(frames: 10_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = PlaybackSource(reader: try SoundFileReader(path: path))
        source.loopsLeft = 1
        let out = drain(&source, ticks: [1_764, 7, 5_000, 441])
        let expected = try file(path)
        #expect(out.count == 2 * expected.count, "frames out: \(out.count / 2)")
        #expect(Array(out.prefix(expected.count)) == expected)
        #expect(Array(out.suffix(expected.count)) == expected)
    }

    @Test("SO2: at another rate each frame is interpolated between the file's two around it", arguments: [0.5, 0.75, 1.5, 2.0])
    func otherRate(rate: Double) throws {
        let path = try rampFile(frames: 9_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = PlaybackSource(reader: try SoundFileReader(path: path))
        source.rate = rate
        let out = drain(&source, ticks: [1_764, 3, 4_097])
        let file = try file(path)
        // What a frame-by-frame player makes: frame k from position k·rate, the last frame alone.
        var expected: [Float] = []
        var (start, fraction) = (0, 0.0)
        while start + 1 < 9_000 {
            for channel in 0..<2 {
                let a = file[2 * start + channel]
                expected.append(a + (file[2 * (start + 1) + channel] - a) * Float(fraction))
            }
            fraction += rate
            start += Int(fraction)
            fraction -= Double(Int(fraction))
        }
        if start == 8_999 { expected += file[(2 * start)...] }
        #expect(out.count == expected.count, "frames out: \(out.count / 2), expected \(expected.count / 2)")
        #expect(out == expected)
    }

    @Test("SO2: a steady volume scales every sample; a pan scales one side; a fade is a line")
    func shape() throws {
        let path = try rampFile(frames: 4_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try file(path)
        var source = PlaybackSource(reader: try SoundFileReader(path: path))
        source.setVolume(0.5, over: 0)
        let half = source.next(1_000)
        #expect(half == file.prefix(2_000).map { $0 * 0.5 })
        source.pan = 0.5  // towards the right: the left side at half
        let panned = source.next(1_000)
        var expected: [Float] = []
        for frame in 1_000..<2_000 {
            let left: Float = file[2 * frame] * 0.5 * 0.5
            let right: Float = file[2 * frame + 1] * 0.5
            expected += [left, right]
        }
        #expect(panned == expected)
        source.pan = 0
        source.setVolume(1, over: 1_000)  // from 0.5 to 1 over 1,000 frames
        let faded = source.next(1_000)
        let gains = (1...1_000).map { min(1, 0.5 + Float($0) * 0.0005) }
        for frame in [0, 499, 999] {
            #expect(abs(faded[2 * frame] - file[2 * (2_000 + frame)] * gains[frame]) < 1e-4, "frame \(frame)")
        }
        #expect(source.targetVolume == 1 && source.volume == 1)
    }

    @Test("SO2: the meter reads each channel on its own: its mean square and its peak")
    func meter() {
        var meter = PowerMeter(channels: 2)
        // Left a steady 0.5, right a square of ±1 (its mean square 1: +3 dBFS as a sine is measured).
        var samples: [Float] = []
        for index in 0..<480 { samples += [0.5, index % 2 == 0 ? 1 : -1] }
        meter.add(samples)
        meter.add([0.5, 1])
        let levels = meter.take()
        #expect(abs(levels[0].average - LevelMeter.dBFS(meanSquare: 0.25)) < 1e-9)
        #expect(abs(levels[0].peak - 20 * log10(0.5)) < 1e-9)
        #expect(abs(levels[1].average - LevelMeter.dBFS(meanSquare: 1)) < 1e-9)
        #expect(levels[1].peak == 0)
        #expect(meter.take()[0].average == -160, "taken: the next reading starts afresh")
    }
}
