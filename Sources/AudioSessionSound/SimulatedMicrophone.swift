#if canImport(Glibc)
import Glibc
#endif

/// The simulated device's microphone: a 440 Hz tone at −12 dBFS (amplitude 0.25) times the
/// input gain, produced at real-time pace.
package final class SimulatedMicrophone: @unchecked Sendable {
    package static let amplitude: Float = 0.25
    package static let frequency = 440.0
    package let channels: Int
    private var clock: FrameClock
    private var phase = 0

    package init(channels: Int, sampleRate: Int) {
        self.channels = channels
        self.clock = FrameClock(sampleRate: sampleRate)
        _ = clock.take()
    }

    package func take(gain: Float) -> [Float] {
        let frames = clock.take()
        var samples = [Float](repeating: 0, count: frames * channels)
        let step = 2 * Double.pi * Self.frequency / Double(clock.sampleRate)
        for frame in 0..<frames {
            let value = Self.amplitude * gain * Float(sin(step * Double(phase + frame)))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        phase += frames
        return samples
    }

    package func pause() { clock.reset() }
}
