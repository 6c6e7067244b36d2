#if canImport(Glibc)
import Glibc
#endif

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

    /// Interleaved samples. Mono and stereo (nearly every file) four samples at a time in
    /// independent lanes (SO2's cost: a single running sum waits on itself each sample); other
    /// layouts channel by channel. Sums of squares in `Float` per call, carried on in `Double`.
    package mutating func add(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { add($0) }
    }

    package mutating func add(_ buffer: UnsafeBufferPointer<Float>) {
        frames += buffer.count / channels
        guard channels <= 2 else { return addByChannel(buffer) }
        var (s0, s1, s2, s3): (Float, Float, Float, Float) = (0, 0, 0, 0)
        var (p0, p1, p2, p3): (Float, Float, Float, Float) = (0, 0, 0, 0)
        var index = 0
        while index + 4 <= buffer.count {  // interleaved stereo: left, right, left, right
            let (a, b, c, d) = (buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3])
            (s0, s1, s2, s3) = (s0 + a * a, s1 + b * b, s2 + c * c, s3 + d * d)
            (p0, p1, p2, p3) = (max(p0, a.magnitude), max(p1, b.magnitude), max(p2, c.magnitude), max(p3, d.magnitude))
            index += 4
        }
        while index < buffer.count {  // the last frames of a block: lanes 0 and 1 hold the same channels as 2 and 3
            let value = buffer[index]
            if index % 2 == 0 {
                (s0, p0) = (s0 + value * value, max(p0, value.magnitude))
            } else {
                (s1, p1) = (s1 + value * value, max(p1, value.magnitude))
            }
            index += 1
        }
        if channels == 1 {
            sums[0] += Double(s0 + s1 + s2 + s3)
            peaks[0] = max(peaks[0], p0, p1, p2, p3)
        } else {
            sums[0] += Double(s0 + s2)
            sums[1] += Double(s1 + s3)
            peaks[0] = max(peaks[0], p0, p2)
            peaks[1] = max(peaks[1], p1, p3)
        }
    }

    private mutating func addByChannel(_ buffer: UnsafeBufferPointer<Float>) {
        for channel in 0..<channels {
            var (sum, peak) = (0.0, peaks[channel])
            var index = channel
            while index < buffer.count {
                let value = buffer[index]
                sum += Double(value * value)
                peak = max(peak, abs(value))
                index += channels
            }
            sums[channel] += sum
            peaks[channel] = peak
        }
    }

    /// What `other` metered, as if its samples had come here.
    package mutating func add(_ other: PowerMeter) {
        for channel in 0..<min(channels, other.channels) {
            sums[channel] += other.sums[channel]
            peaks[channel] = max(peaks[channel], other.peaks[channel])
        }
        frames += other.frames
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
