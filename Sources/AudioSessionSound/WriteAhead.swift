/// What a player wrote ahead of what is heard on a sound server's stream, and how to write it
/// again (SO2's cost: a player fed as the server asks is seconds ahead of what is heard, as
/// paplay is, and is still heard at once when its own volume, pan, rate, loops or position change).
///
/// Frames are counted from the stream's start, in the server's units of what was written and
/// what was heard. For each block written it keeps where the source was (`PlaybackSource.Mark`),
/// so that from any frame not heard yet the source can be put back and the rest written again
/// over what is buffered; and it meters each 20 ms slice when it is heard, not when it is written
/// (AVAudioPlayer's meters follow the sound). Not thread-safe: the player's queue owns it.
package struct WriteAhead {
    /// Frames written since the stream began.
    package private(set) var written = 0
    /// Where the sound's last frame was written (no loop left), once it was.
    package private(set) var end: Int?
    /// The last frame known to be heard.
    package private(set) var heard = 0
    /// The stream was told to play once the end was written (a sound shorter than the server's
    /// buffer); forgotten when the end is (`rewind`).
    package var endTriggered = false
    private let channels: Int
    private let sliceFrames: Int
    private var marks: [(index: Int, mark: PlaybackSource.Mark)] = []
    private var slices: [(end: Int, meter: PowerMeter)] = []
    private var heardMeter: PowerMeter
    /// Whether blocks written are metered (AVAudioPlayer meters only with `isMeteringEnabled`:
    /// the meter was a twentieth of a player's CPU). Turned on, what is buffered is metered only
    /// once it is written again (`rewrite`).
    package var metering = true

    package init(channels: Int, sampleRate: Int) {
        self.channels = channels
        sliceFrames = max(1, sampleRate / 50)
        heardMeter = PowerMeter(channels: channels)
    }

    /// The next `count` frames of `source` (fewer at its end), written after the rest.
    package mutating func append(_ count: Int, from source: inout PlaybackSource) -> [Float] {
        guard end == nil, count > 0 else { return [] }
        marks.append((written, source.mark()))
        let samples = source.next(count)
        if metering { meter(samples, from: written) }
        written += samples.count / channels
        if source.isAtEnd { end = written }
        return samples
    }

    /// Heard up to `frame`: the slices before it are metered as heard, the marks before it
    /// forgotten (the last one at or before it kept: a rewrite may start there).
    package mutating func hear(upTo frame: Int) {
        heard = max(heard, min(frame, written))
        let done = slices.prefix { $0.end <= heard }.count
        for slice in slices.prefix(done) { heardMeter.add(slice.meter) }
        slices.removeFirst(done)
        if let last = marks.lastIndex(where: { $0.index <= heard }), last > 0 { marks.removeFirst(last) }
    }

    /// Per channel, the average and peak power of what was heard since the last call.
    package mutating func takeLevels() -> [(average: Double, peak: Double)] { heardMeter.take() }

    /// The file's frame being heard (`currentTime`): from the mark before it, at that mark's
    /// rate, wrapped into the file when a loop began since.
    package func position(fileFrames: Int) -> Double {
        guard let (index, mark) = marks.last(where: { $0.index <= heard }) else { return 0 }
        var position = mark.position + Double(heard - index) * mark.state.rate
        if fileFrames > 0, position >= Double(fileFrames) {
            position =
                mark.state.loopsLeft != 0 ? position.truncatingRemainder(dividingBy: Double(fileFrames)) : Double(fileFrames)
        }
        return position
    }

    /// Puts `source` back where it was at `frame` (not before the first mark kept, nor after what
    /// was written): the rest is forgotten, to be written again from there. Returns that frame.
    package mutating func rewind(to frame: Int, _ source: inout PlaybackSource) -> Int {
        let from = min(written, max(frame, marks.first?.index ?? written))
        guard let last = marks.lastIndex(where: { $0.index <= from }) else { return from }
        source.restore(marks[last].mark)
        var skip = from - marks[last].index
        while skip > 0 {
            let got = source.next(min(skip, 4_096)).count / channels
            guard got > 0 else { break }
            skip -= got
        }
        marks.removeSubrange((last + 1)...)
        slices.removeAll { $0.end > from }
        (written, end, endTriggered) = (from, nil, false)
        return from
    }

    /// `change` made to `source` from `frame` on (a frame not heard yet; the heard one if
    /// earlier): what to write over the last `replacing` frames written — at least that many
    /// (silence after the end of the sound) and up to `ahead` past what is heard.
    package mutating func rewrite(
        from frame: Int, ahead: Int, _ source: inout PlaybackSource, change: (inout PlaybackSource) -> Void
    ) -> (samples: [Float], replacing: Int) {
        let before = written
        let from = rewind(to: max(frame, heard), &source)
        change(&source)
        var samples = append(max(before - from, heard + ahead - from), from: &source)
        if written < before {
            samples += [Float](repeating: 0, count: (before - written) * channels)
            written = before
        }
        return (samples, before - from)
    }

    /// Metering turned on while playing: what was written and is not heard yet is decoded again
    /// from the frame heard and metered, not written again (it is the same sound; a rewrite made
    /// the server rewind its sink, whose clock then stood for as long as the sink ran ahead, so
    /// the meters read nothing for up to a second).
    package mutating func meterBuffered(_ source: inout PlaybackSource) {
        let before = written
        let from = rewind(to: heard, &source)
        _ = append(before - from, from: &source)
    }

    /// Slices of `samples` (written from `index` on) metered on their own.
    private mutating func meter(_ samples: [Float], from index: Int) {
        let (frames, channels, sliceFrames) = (samples.count / channels, channels, sliceFrames)
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < frames {
                let count = min(sliceFrames, frames - start)
                var slice = PowerMeter(channels: channels)
                slice.add(UnsafeBufferPointer(rebasing: buffer[start * channels..<(start + count) * channels]))
                slices.append((index + start + count, slice))
                start += count
            }
        }
    }
}
