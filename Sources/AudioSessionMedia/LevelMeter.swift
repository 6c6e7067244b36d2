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
    private let listener: Listener

    /// - Parameters:
    ///   - server: the sound server's address (nil: `PULSE_SERVER`, then the user's).
    ///   - source: the source's name, such as `speaker.monitor`.
    public init(server: String?, source: String) throws(MediaError) {
        let listener = Listener(
            input: try PulseInput(server: server, app: nil, channels: 1, sampleRate: 48_000, bufferDuration: 0.01, device: source)
        )
        self.listener = listener
        // The thread holds the listener, not the meter: a meter let go stops listening.
        Thread.detachNewThread { listener.run() }
    }

    deinit { listener.stop() }

    /// Listens for `seconds` and returns the level heard meanwhile, in dBFS of a sine (a
    /// full-scale sine is 0 dBFS); −240 when nothing at all was heard.
    public func level(over seconds: Double) -> Double {
        listener.window.withLock { $0 = Listener.Window(open: true) }
        usleep(UInt32(seconds * 1_000_000))
        let heard = listener.window.withLock { window in
            defer { window = Listener.Window() }
            return window
        }
        return Self.dBFS(meanSquare: heard.count == 0 ? 0 : heard.sumOfSquares / Double(heard.count))
    }

    /// The level of samples as dBFS of a sine; −240 for silence.
    public static func dBFS(_ samples: some Collection<Float>) -> Double {
        dBFS(meanSquare: samples.isEmpty ? 0 : sumOfSquares(samples) / Double(samples.count))
    }

    private static func dBFS(meanSquare: Double) -> Double {
        20 * log10(max((meanSquare * 2).squareRoot(), 1e-12))
    }

    /// Stops listening (also when the meter is let go).
    public func stop() { listener.stop() }
}

/// The record stream and the running sums of the measurement under way, read every 10 ms by
/// the meter's thread until stopped.
private final class Listener: Sendable {
    struct Window {
        var open = false
        var sumOfSquares = 0.0
        var count = 0
    }

    let input: PulseInput
    let window = Mutex(Window())
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init(input: PulseInput) { self.input = input }

    func run() {
        while running.load(ordering: .acquiring) {
            let samples = input.read()
            window.withLock { window in
                guard window.open else { return }
                window.sumOfSquares += sumOfSquares(samples)
                window.count += samples.count
            }
            usleep(10_000)
        }
        done.signal()
    }

    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        done.wait()
    }
}

private func sumOfSquares(_ samples: some Collection<Float>) -> Double {
    samples.reduce(0.0) { $0 + Double($1) * Double($1) }
}
