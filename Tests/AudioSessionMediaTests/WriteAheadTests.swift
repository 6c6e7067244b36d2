import AudioSessionSound
import Foundation
import Testing

/// SO2's cost on a sound server: what a player wrote seconds ahead is written again from any
/// frame not heard yet as if the change had been made when that frame was made — sample for
/// sample against a source changed at that frame — and what is heard is what is metered and
/// where `currentTime` is.
@Suite struct WriteAheadTests {
    let directory = NSTemporaryDirectory() + "write-ahead-\(UUID().uuidString)"

    func rampFile(frames: Int) throws -> String { try PlaybackSourceTests.rampFile(frames: frames, in: directory) }

    func source(_ path: String) throws -> PlaybackSource {
        var source = PlaybackSource(reader: try SoundFileReader(path: path))
        source.metering = false
        return source
    }

    /// What a source gives when `change` is made after `at` frames: `total` frames in all.
    func reference(_ path: String, total: Int, at: Int, _ change: (inout PlaybackSource) -> Void) throws -> [Float] {
        var source = try source(path)
        var out = source.next(at)
        change(&source)
        out += source.next(total - at)
        return out
    }

    @Test(
        "SO2: blocks written ahead, then a change from a frame not heard yet: the stream holds what a source changed at that frame makes",
        arguments: ["volume", "fade", "pan", "rate", "seek"])
    func rewrite(_ name: String) throws {
        let change: (inout PlaybackSource) -> Void = { source in
            switch name {
            case "volume": source.setVolume(0.25, over: 0)
            case "fade": source.setVolume(0, over: 3_000)
            case "pan": source.pan = -0.5
            case "rate": source.rate = 1.5
            default: source.seek(to: 20_000)
            }
        }
        let path = try rampFile(frames: 40_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try source(path)
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        var stream: [Float] = []  // what the server holds, index by index
        for block in [12_000, 12_000, 5_000] { stream += ahead.append(block, from: &source) }
        ahead.hear(upTo: 13_579)  // inside the second block, not at a mark
        let (samples, replacing) = ahead.rewrite(from: 13_579, ahead: 10_000, &source, change: change)
        #expect(replacing == 29_000 - 13_579, "\(name)")
        stream.removeLast(replacing * 2)
        stream += samples
        let total = stream.count / 2
        #expect(total >= 29_000, "\(name): at least what was written before")
        #expect(
            stream == (try reference(path, total: total, at: 13_579, change)),
            "\(name): not what a source changed at frame 13,579 makes")
        // Written on after it, the stream goes on as that source does.
        stream += ahead.append(4_000, from: &source)
        #expect(
            stream == (try reference(path, total: stream.count / 2, at: 13_579, change)), "\(name): appended after the rewrite")
    }

    @Test(
        "SO2: a rewrite that ends before what was written (loops cut short) is made up with silence; the end is where the sound ends"
    )
    func shorterRewrite() throws {
        let path = try rampFile(frames: 10_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try source(path)
        source.loopsLeft = 1
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        _ = ahead.append(15_000, from: &source)  // into the second pass
        ahead.hear(upTo: 8_000)
        let (samples, replacing) = ahead.rewrite(from: 8_000, ahead: 1_000, &source) { $0.loopsLeft = 0 }
        #expect(replacing == 7_000)
        #expect(samples.count == 7_000 * 2, "as many frames as it replaces")
        #expect(samples.suffix(5_000 * 2).allSatisfy { $0 == 0 }, "silence after the end")
        #expect(ahead.end == 10_000 && ahead.written == 15_000)
    }

    @Test(
        "SO2: currentTime is the frame heard (at the rate of its block, wrapped on a loop); the meters hold what was heard, not what was written"
    )
    func heardPositionAndMeters() throws {
        let path = try rampFile(frames: 10_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try source(path)
        source.loopsLeft = 1
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        _ = ahead.append(4_000, from: &source)
        source.rate = 2
        _ = ahead.append(6_000, from: &source)  // file frames 4,000 … 16,000: into the second pass
        ahead.hear(upTo: 3_000)
        #expect(abs(ahead.position(fileFrames: 10_000) - 3_000) < 0.001)
        ahead.hear(upTo: 7_000)
        #expect(abs(ahead.position(fileFrames: 10_000) - 0) < 0.001, "4,000 + 2 × 3,000 is the second pass's first frame")
        ahead.hear(upTo: 7_500)
        #expect(abs(ahead.position(fileFrames: 10_000) - 1_000) < 0.001)
        // Nothing heard yet is metered: the slices of 960 frames up to 7,500 are, not the 10,000 written.
        var heardOnly = WriteAhead(channels: 2, sampleRate: 48_000)
        var fresh = try self.source(path)
        _ = heardOnly.append(9_600, from: &fresh)  // the ramp up to 0.96 on the left
        heardOnly.hear(upTo: 960)
        let early = heardOnly.takeLevels()
        heardOnly.hear(upTo: 9_600)
        let late = heardOnly.takeLevels()
        #expect(early[0].peak < -20, "the first 960 frames peak at 0.02: \(early[0].peak) dBFS")
        #expect(late[0].peak > -1, "the rest peaks near 0.96: \(late[0].peak) dBFS")
    }

    @Test("SO2: metering off, nothing written is measured; turned on, what is written again from the frame heard is")
    func meteringOnlyWhenAsked() throws {
        let path = try rampFile(frames: 10_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try self.source(path)
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        ahead.metering = false
        _ = ahead.append(9_600, from: &source)
        ahead.hear(upTo: 4_800)
        #expect(ahead.takeLevels()[0].peak == -160, "heard with metering off: nothing measured")
        ahead.metering = true
        _ = ahead.rewrite(from: ahead.heard, ahead: 4_800, &source) { _ in }
        ahead.hear(upTo: 9_600)
        let levels = ahead.takeLevels()
        #expect(levels[0].peak > -1, "written again and heard, metered: the ramp's 0.96 at \(levels[0].peak) dBFS")
    }

    @Test(
        "SO2: metering turned on while playing measures what is buffered from the frame heard, writing nothing: the same frames, the source where it was"
    )
    func meteringTurnedOnWritesNothing() throws {
        let path = try rampFile(frames: 20_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try self.source(path)
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        ahead.metering = false
        _ = ahead.append(9_600, from: &source)
        ahead.hear(upTo: 4_800)
        ahead.metering = true
        ahead.meterBuffered(&source)
        #expect(ahead.written == 9_600, "nothing more written: \(ahead.written)")
        // The source goes on where it was: what it gives next is the ramp's frames from 9,600.
        var reference = try self.source(path)
        _ = reference.next(9_600)
        #expect(ahead.append(2_000, from: &source) == reference.next(2_000), "the source did not go on where it was")
        ahead.hear(upTo: 9_600)
        let peak = ahead.takeLevels()[0].peak
        #expect(
            abs(peak - 20 * log10(0.48)) < 0.5,
            "the buffered ramp up to 0.48 (frame 9,600 of 20,000) metered once heard: \(peak) dBFS")
    }

    @Test("SO2: the stream is told to play its end once per end written: a rewind before the end forgets it")
    func endTriggeredOncePerEnd() throws {
        let path = try rampFile(frames: 5_000)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var source = try self.source(path)
        var ahead = WriteAhead(channels: 2, sampleRate: 48_000)
        _ = ahead.append(8_000, from: &source)
        #expect(ahead.end == 5_000)
        ahead.endTriggered = true
        _ = ahead.rewind(to: 1_000, &source)
        #expect(ahead.end == nil && !ahead.endTriggered, "rewound before the end: the end and its trigger forgotten")
        _ = ahead.append(8_000, from: &source)
        #expect(ahead.end == 5_000 && !ahead.endTriggered, "written again: to be told again")
    }
}
