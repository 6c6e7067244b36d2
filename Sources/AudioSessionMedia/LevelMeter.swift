import Foundation
import Synchronization

/// Listens to a source of a sound server and measures its level — on a sink's monitor
/// (`<sink>.monitor`) it hears what that sink plays. For checking on a real server what the
/// session did to the sound: a duck, silence during a call, a foreign player muted. The tests
/// and `pulse-bench` measure with it.
///
/// An untagged record stream (mono float, 48 kHz, 10 ms fragments), so the daemon leaves it
/// where it is; read every 10 ms on a thread of its own, keeping only the running sums of the
/// measurement under way.
public final class LevelMeter: Sendable {
    private struct Window {
        var open = false
        var sumOfSquares = 0.0
        var count = 0
    }

    private let input: PulseInput
    private let window = Mutex(Window())
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - server: the sound server's address (nil: `PULSE_SERVER`, then the user's).
    ///   - source: the source's name, such as `speaker.monitor`.
    public init(server: String?, source: String) throws(MediaError) {
        input = try PulseInput(server: server, app: nil, channels: 1, sampleRate: 48_000, bufferDuration: 0.01, device: source)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .acquiring) {
                let samples = input.read()
                window.withLock { window in
                    guard window.open else { return }
                    window.sumOfSquares += samples.reduce(0.0) { $0 + Double($1) * Double($1) }
                    window.count += samples.count
                }
                usleep(10_000)
            }
            done.signal()
        }
    }

    deinit { stop() }

    /// Listens for `seconds` and returns the level heard meanwhile, in dBFS of a sine (a
    /// full-scale sine is 0 dBFS); −240 when nothing at all was heard.
    public func level(over seconds: Double) -> Double {
        window.withLock { $0 = Window(open: true) }
        usleep(UInt32(seconds * 1_000_000))
        let heard = window.withLock { window in
            defer { window = Window() }
            return window
        }
        return Self.dBFS(meanSquare: heard.count == 0 ? 0 : heard.sumOfSquares / Double(heard.count))
    }

    /// The level of samples as dBFS of a sine; −240 for silence.
    public static func dBFS(_ samples: some Collection<Float>) -> Double {
        dBFS(meanSquare: samples.isEmpty ? 0 : samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
    }

    private static func dBFS(meanSquare: Double) -> Double {
        20 * log10(max((meanSquare * 2).squareRoot(), 1e-12))
    }

    /// Stops listening (also on deinit).
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        done.wait()
    }
}
