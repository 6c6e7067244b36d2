/// What a player plays, a piece at a time (SO2): a sound file decoded as it goes, looped,
/// played at a rate (linear interpolation between the file's frames), at a volume that may fade,
/// panned, and metered — the one playback path `AudioPlayer` (and through it AVAudioPlayer)
/// uses. Not thread-safe: the player's queue owns it.
package struct PlaybackSource {
    package let reader: SoundFileReader
    package var channels: Int { reader.channels }
    /// Loops still to play after this pass (−1: forever).
    package var loopsLeft = 0
    /// 0.5…2 (1: the file's own pace).
    package var rate = 1.0
    /// −1 (left) … 1 (right); a stereo sound only.
    package var pan: Float = 0
    package private(set) var volume: Float = 1
    private var fade: (target: Float, step: Float)?
    /// Frames of the file decoded but not consumed yet, interleaved, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Where between the first pending frame and the next the next output frame falls (rate ≠ 1).
    private var fraction = 0.0
    /// What it played since the last `takeLevels()`.
    private var meter: PowerMeter
    /// Off: `next` does not meter (its caller meters what is heard, not what is written ahead).
    package var metering = true
    /// The file ended where its header said it would not (a file truncated while it plays).
    package private(set) var decodeError: String?
    /// Everything was played (no loop left): what `next` returns is the last of it.
    package private(set) var isAtEnd = false

    package init(reader: SoundFileReader) {
        self.reader = reader
        meter = PowerMeter(channels: reader.channels)
    }

    /// The frame of the file the next output frame comes from.
    package var position: Double {
        Double(reader.position - (pending.count / channels - pendingStart / channels)) + fraction
    }

    /// Where it is, to come back to (`restore`): the state and the file's position (SO2: a player
    /// that wrote ahead rewrites what is buffered from a mark when its volume, pan or rate changes).
    package struct Mark {
        let state: PlaybackSource
        let readerPosition: Int

        /// The frame of the file the next output frame came from then (`position`; the reader
        /// is shared, so its position then is the one kept here).
        var position: Double {
            Double(readerPosition - (state.pending.count - state.pendingStart) / state.channels) + state.fraction
        }
    }

    package func mark() -> Mark { Mark(state: self, readerPosition: reader.position) }

    /// Back to `mark`, as it was then — what was metered since included (the meter is the caller's
    /// to keep when it meters written blocks itself, `metering` off).
    package mutating func restore(_ mark: Mark) {
        self = mark.state
        if reader.position != mark.readerPosition { reader.seek(to: mark.readerPosition) }
    }

    package mutating func seek(to frame: Int) {
        reader.seek(to: frame)
        isAtEnd = false
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        fraction = 0
    }

    /// Sets the volume at once (`over` 0) or over `seconds` of output at `sampleRate`.
    package mutating func setVolume(_ target: Float, over frames: Int) {
        if frames <= 0 {
            volume = target
            fade = nil
        } else {
            fade = (target, (target - volume) / Float(frames))
        }
    }

    /// The volume a fade is heading for (or the volume).
    package var targetVolume: Float { fade?.target ?? volume }

    /// Up to `count` output frames; fewer only at the end (no loop left). Block by block (SO2's
    /// cost): at the file's own pace whole runs of frames are copied as decoded; at another rate
    /// each output frame is interpolated between two of the file's.
    package mutating func next(_ count: Int) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(count * channels)
        var produced = 0
        while produced < count {
            if rate == 1 {
                guard fill(1) else {
                    isAtEnd = true
                    break
                }
                let frames = min(count - produced, pendingFrames)
                out += pending[pendingStart..<pendingStart + frames * channels]
                pendingStart += frames * channels
                produced += frames
                continue
            }
            guard fill(2) else {
                isAtEnd = true
                // The end: the last frame alone, if one is left.
                if pendingFrames == 1 {
                    out += pending[pendingStart..<pendingStart + channels]
                    pendingStart += channels
                    produced += 1
                }
                break
            }
            produced += interpolate(into: &out, upTo: count - produced)
        }
        shape(&out)
        return out
    }

    /// Output frames at `rate` between the pending frames, as many as two pending frames allow
    /// (at most `limit`); how many.
    private mutating func interpolate(into out: inout [Float], upTo limit: Int) -> Int {
        let (channels, rate) = (self.channels, self.rate)
        var (start, fraction, made) = (pendingStart, self.fraction, 0)
        pending.withUnsafeBufferPointer { frames in
            while made < limit, start + 2 * channels <= frames.count {
                let weight = Float(fraction)
                for channel in 0..<channels {
                    let a = frames[start + channel]
                    out.append(a + (frames[start + channels + channel] - a) * weight)
                }
                made += 1
                fraction += rate
                let whole = Int(fraction)
                fraction -= Double(whole)
                start += whole * channels
            }
        }
        (pendingStart, self.fraction) = (start, fraction)
        return made
    }

    /// Frames left to consume.
    private var pendingFrames: Int { (pending.count - pendingStart) / channels }

    /// At least `frames` pending frames, decoding (and looping) as needed; false at the very end.
    private mutating func fill(_ frames: Int) -> Bool {
        while pendingFrames < frames {
            if pendingStart > 0 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            let more = reader.read(max(Self.readFrames, Int(Double(frames) * rate) + 2))
            if more.isEmpty {
                if reader.position < reader.frames, decodeError == nil {
                    decodeError = "\(reader.path) ends at frame \(reader.position) of the \(reader.frames) its header says"
                }
                guard loopsLeft != 0, decodeError == nil, reader.frames > 0 else { return false }
                if loopsLeft > 0 { loopsLeft -= 1 }
                reader.seek(to: 0)
                continue
            }
            pending += more
        }
        return true
    }

    /// Frames decoded at a time (about 90 ms at 44.1 kHz: a few decoder calls per tick).
    private static let readFrames = 4_096

    /// Volume (with its fade) and pan, then the meters. A steady volume without pan is one
    /// multiplication per sample (none at 1); a fade or a pan goes frame by frame.
    private mutating func shape(_ samples: inout [Float]) {
        let stereoPan = channels == 2 && pan != 0
        if fade == nil, !stereoPan {
            if volume != 1 {
                let gain = volume
                samples.withUnsafeMutableBufferPointer { buffer in
                    for index in buffer.indices { buffer[index] *= gain }
                }
            }
            if metering { meter.add(samples) }
            return
        }
        let channels = self.channels
        let left: Float = stereoPan && pan > 0 ? 1 - pan : 1
        let right: Float = stereoPan && pan < 0 ? 1 + pan : 1
        var (volume, fade) = (self.volume, self.fade)
        samples.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if let (target, step) = fade {
                    volume += step
                    if (step >= 0 && volume >= target) || (step < 0 && volume <= target) {
                        volume = target
                        fade = nil
                    }
                }
                for channel in 0..<channels {
                    buffer[index + channel] *= channels == 2 ? volume * (channel == 0 ? left : right) : volume
                }
                index += channels
            }
        }
        (self.volume, self.fade) = (volume, fade)
        if metering { meter.add(samples) }
    }

    /// Per channel, the average and peak power in dBFS since the last call (−160: silence).
    package mutating func takeLevels() -> [(average: Double, peak: Double)] { meter.take() }
}
