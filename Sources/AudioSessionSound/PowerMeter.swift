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

    /// Interleaved samples; channel by channel, in one pass over each.
    package mutating func add(_ samples: [Float]) {
        let channels = self.channels
        samples.withUnsafeBufferPointer { buffer in
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
