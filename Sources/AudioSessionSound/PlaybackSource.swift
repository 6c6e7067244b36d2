#if canImport(Glibc)
import Glibc
#endif

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

    /// Up to `count` output frames; fewer only at the end (no loop left).
    package mutating func next(_ count: Int) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(count * channels)
        var produced = 0
        while produced < count {
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
            let base = pendingStart
            for channel in 0..<channels {
                let a = pending[base + channel]
                let b = pending[base + channels + channel]
                out.append(rate == 1 ? a : a + (b - a) * Float(fraction))
            }
            produced += 1
            fraction += rate
            let whole = Int(fraction)
            fraction -= Double(whole)
            pendingStart += whole * channels
        }
        shape(&out)
        return out
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
            let more = reader.read(max(1_024, Int(Double(frames) * rate) + 2))
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

    /// Volume (with its fade) and pan, then the meters.
    private mutating func shape(_ samples: inout [Float]) {
        let frames = samples.count / max(channels, 1)
        let stereoPan = channels == 2 && pan != 0
        let left = pan > 0 ? 1 - pan : 1
        let right = pan < 0 ? 1 + pan : 1
        for frame in 0..<frames {
            if let (target, step) = fade {
                volume += step
                if (step >= 0 && volume >= target) || (step < 0 && volume <= target) {
                    volume = target
                    fade = nil
                }
            }
            for channel in 0..<channels {
                let index = frame * channels + channel
                var gain = volume
                if stereoPan { gain *= channel == 0 ? left : right }
                samples[index] *= gain
            }
        }
        meter.add(samples)
    }

    /// Per channel, the average and peak power in dBFS since the last call (−160: silence).
    package mutating func takeLevels() -> [(average: Double, peak: Double)] { meter.take() }
}

/// Metering as AVAudioPlayer and AVAudioRecorder report it: per channel, the average and peak
/// power of the samples since the last `take()`, in dBFS as the monitor is measured (LevelMeter:
/// a full-scale sine is 0 dBFS), −160 for silence.
package struct PowerMeter {
    package let channels: Int
    private var sums: [Double]
    private var peaks: [Float]
    private var frames = 0

    package init(channels: Int) {
        self.channels = max(1, channels)
        sums = Array(repeating: 0, count: self.channels)
        peaks = Array(repeating: 0, count: self.channels)
    }

    /// Interleaved samples.
    package mutating func add(_ samples: [Float]) {
        for (index, value) in samples.enumerated() {
            let channel = index % channels
            sums[channel] += Double(value * value)
            peaks[channel] = max(peaks[channel], abs(value))
        }
        frames += samples.count / channels
    }

    package mutating func take() -> [(average: Double, peak: Double)] {
        defer { self = PowerMeter(channels: channels) }
        return (0..<channels).map { channel in
            guard frames > 0, peaks[channel] > 0 else { return (-160, -160) }
            let average = LevelMeter.dBFS(meanSquare: sums[channel] / Double(frames))
            return (max(-160, average), max(-160, 20 * log10(Double(peaks[channel]))))
        }
    }
}
