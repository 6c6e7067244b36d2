import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Listens to a source of a sound server and measures its level — on a sink's monitor
/// (`<sink>.monitor`) it hears what that sink plays. For checking on a real server what the
/// session did to the sound: a duck, silence during a call, a foreign player muted. The tests
/// and `pulse-bench` measure with it.
///
/// An untagged record stream (float, mono unless asked for more, 48 kHz, 10 ms fragments), so the daemon leaves it
/// where it is; read every 10 ms on a thread of its own, keeping only the running sums of the
/// measurement under way.
public final class LevelMeter: Sendable {
    private let listener: Listener

    /// - Parameters:
    ///   - server: the sound server's address (nil: `PULSE_SERVER`, then the user's).
    ///   - source: the source's name, such as `speaker.monitor`.
    ///   - channels: 1 (the server downmixes, as it will) or the source's own count (the level is
    ///     then the mean over every channel's samples, with no downmix of the server's).
    ///   - sampleRate: the rate it listens at (the source's own spares the server a conversion).
    public init(server: String?, source: String, channels: Int = 1, sampleRate: Int = 48_000) throws(MediaError) {
        let listener = Listener(
            input: try PulseInput(
                server: server, app: nil, channels: channels, sampleRate: sampleRate, bufferDuration: 0.01, device: source)
        )
        self.listener = listener
        // The thread holds the listener, not the meter: a meter let go stops listening.
        DispatchQueue(label: "audiosession.level-meter").async { listener.run() }
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

    /// A mean square as dBFS of a sine (`PowerMeter` reads its averages so too).
    package static func dBFS(meanSquare: Double) -> Double {
        20 * log10(max((meanSquare * 2).squareRoot(), 1e-12))
    }

    /// Waits until a sample louder than `dBFS` (a sine's peak: 0 is full scale) arrives, at
    /// most `seconds`; the monotonic time (`DispatchTime.now().uptimeNanoseconds`) it was read
    /// at, nil if none came. Read every 2 ms while waiting: the latency benchmarks time the first
    /// sound of a player with it (what the monitor adds is the same for every player).
    public func firstSound(above dBFS: Double, within seconds: Double) -> UInt64? {
        let threshold = Float(pow(10, dBFS / 20))
        listener.watch.withLock { $0 = Listener.Watch(threshold: threshold) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if let heard = listener.watch.withLock({ $0?.heardAt }) {
                listener.watch.withLock { $0 = nil }
                return heard
            }
            usleep(1_000)
        }
        listener.watch.withLock { $0 = nil }
        return nil
    }

    /// Stops listening (also when the meter is let go).
    public func stop() { listener.stop() }
}

/// The record stream and the running sums of the measurement under way, read every 10 ms by
/// the meter's thread until stopped.
private final class Listener: Sendable {
    package struct Window {
        var open = false
        var sumOfSquares = 0.0
        var count = 0
    }

    /// `LevelMeter.firstSound`: the peak awaited, and when it came.
    package struct Watch {
        var threshold: Float
        var heardAt: UInt64?
    }

    /// The record stream, let go when stopped.
    private let input: Mutex<PulseInput?>
    package let window = Mutex(Window())
    package let watch = Mutex<Watch?>(nil)
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    package init(input: PulseInput) { self.input = Mutex(input) }

    package func run() {
        while running.load(ordering: .acquiring) {
            let samples = input.withLock { $0?.read() ?? [] }
            window.withLock { window in
                guard window.open else { return }
                window.sumOfSquares += sumOfSquares(samples)
                window.count += samples.count
            }
            let watching = watch.withLock { watch -> Bool in
                guard var current = watch else { return false }
                if current.heardAt == nil, samples.contains(where: { abs($0) > current.threshold }) {
                    current.heardAt = DispatchTime.now().uptimeNanoseconds
                    watch = current
                }
                return true
            }
            usleep(watching ? 2_000 : 10_000)
        }
        done.signal()
    }

    /// Stops the thread and closes the record stream (one left connected, unread, kept the
    /// monitor's sink at 10 ms: every stream on it was woken as often, paplay's CPU 5× its own).
    package func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        done.wait()
        input.withLock { $0 = nil }
    }
}

private func sumOfSquares(_ samples: some Collection<Float>) -> Double {
    samples.reduce(0.0) { $0 + Double($1) * Double($1) }
}
