import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A compiled graph: what the render thread runs, immutable once made (SPEC EN9). The control
/// side makes a new one for every edit and hands it over with one atomic swap.
package final class RenderPlan: @unchecked Sendable {
    /// The output node's step (nil: nothing feeds the output).
    package let root: RenderStep?
    /// Steps pulled each slice that do not reach the output: tapped nodes of the input's chain,
    /// sink nodes (an input-only graph has only these).
    package let sideRoots: [RenderStep]
    /// Every kernel in the graph, whose commands each cycle takes first.
    package let kernels: [RenderKernel]

    package init(root: RenderStep?, sideRoots: [RenderStep] = [], kernels: [RenderKernel]) {
        self.root = root
        self.sideRoots = sideRoots
        self.kernels = kernels
    }
}

/// One render thread per running engine (SPEC EN9): wakes once per IO buffer duration, takes the
/// current plan (an atomic load), lets the kernels take their commands, takes what the capture
/// recorded (the input node's), renders a slice and writes it to the app's output stream — as
/// many slices as the stream has room for; without an output, as many as the input has delivered. It takes no
/// lock the control side holds and never waits on the daemon; what it must tell, it pushes into
/// the context's event ring. A wake-up a whole period late is counted (`lateCycles`).
package final class RenderLoop: @unchecked Sendable {
    package let context: RenderContext
    private let rendered = Atomic<Int64>(0)
    package let frames: Int
    package let channels: Int
    package let sampleRate: Int
    private let output: SampleOutput?
    private let input: (stream: SampleInput, kernel: InputKernel)?
    private let current = Atomic<Unmanaged<RenderPlan>?>(nil)
    private var retired: [(plan: Unmanaged<RenderPlan>, cycle: Int)] = []  // the control side's
    private let running = Atomic<Bool>(false)
    private let cycleCount = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private var thread: pthread_t?
    private var interleaved: [Float]
    /// The simulated device only: the session's gain and output port, which the control side
    /// keeps current (a sound server's stream gets both from the daemon; nothing is read then).
    package let simulatedTarget = Mutex<(gain: Float, port: String?, inputGain: Float)>((1, nil, 1))

    /// - Parameters:
    ///   - frames: frames per cycle (the session's IO buffer duration at the output's rate).
    /// - Parameters:
    ///   - input: the capture and the input node's kernel, when the input node is in the graph.
    package init(
        output: SampleOutput?, input: (stream: SampleInput, kernel: InputKernel)? = nil, channels: Int, sampleRate: Int,
        frames: Int,
        context: RenderContext
    ) {
        self.output = output
        self.input = input
        self.context = context
        self.channels = channels
        self.sampleRate = sampleRate
        self.frames = max(16, frames)
        interleaved = [Float](repeating: 0, count: max(16, frames) * channels)
    }

    deinit {
        stop()
        for (plan, _) in retired { plan.release() }
        current.exchange(nil, ordering: .acquiringAndReleasing)?.release()
    }

    /// Wake-ups at least a whole period late since it started (underruns on the way).
    package var lateCycles: Int { late.load(ordering: .relaxed) }
    /// Cycles rendered since it started.
    package var cycles: Int { cycleCount.load(ordering: .relaxed) }
    package var isRunning: Bool { running.load(ordering: .relaxed) }
    /// The output's sample time: frames rendered since it started.
    package var sampleTime: Int64 { rendered.load(ordering: .relaxed) }
    /// Seconds written to the output and not heard yet.
    package var bufferedSeconds: Double { output?.bufferedSeconds ?? 0 }

    /// From the control side: the plan the next cycle renders. The one it replaces is let go on
    /// the control side (`collect`), never on the render thread.
    package func install(_ plan: RenderPlan) {
        let old = current.exchange(Unmanaged.passRetained(plan), ordering: .acquiringAndReleasing)
        if let old { retired.append((old, cycleCount.load(ordering: .acquiring))) }
        collect()
    }

    /// From the control side: lets go the plans no cycle can still be using.
    package func collect() {
        let now = cycleCount.load(ordering: .acquiring)
        let stopped = !running.load(ordering: .acquiring)
        retired.removeAll { entry in
            guard stopped || now > entry.cycle + 1 else { return false }
            entry.plan.release()
            return true
        }
    }

    /// Starts the render thread (the output stream uncorked).
    package func start() -> Bool {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        output?.cork(false)
        input?.stream.cork(false)
        let box = Unmanaged.passRetained(self).toOpaque()
        var made = pthread_t()
        guard
            pthread_create(
                &made, nil,
                { box in
                    let loop = Unmanaged<RenderLoop>.fromOpaque(box!).takeRetainedValue()
                    loop.run()
                    return nil
                }, box) == 0
        else {
            Unmanaged<RenderLoop>.fromOpaque(box).release()
            running.store(false, ordering: .releasing)
            return false
        }
        thread = made
        return true
    }

    /// Stops the render thread and waits for it; what was written and not played is dropped.
    package func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if let thread, pthread_equal(thread, pthread_self()) == 0 { pthread_join(thread, nil) }
        thread = nil
        output?.flush()
        output?.cork(true)
        input?.stream.cork(true)
        input?.kernel.reset()
        collect()
    }

    /// The render thread's loop.
    private func run() {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let period = Int(Double(frames) / Double(sampleRate) * 1_000_000_000)
        var budget = 0
        while running.load(ordering: .acquiring) {
            cycle(&budget)
            cycleCount.add(1, ordering: .releasing)
            Self.advance(&deadline, by: period)
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if Self.nanoseconds(now) - Self.nanoseconds(deadline) > period {
                late.add(1, ordering: .relaxed)  // a whole period late: start again from now
                deadline = now
            }
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil)
        }
    }

    private func cycle(_ budget: inout Int) {
        guard let plan = current.load(ordering: .acquiring)?.takeUnretainedValue() else { return }
        for kernel in plan.kernels { kernel.takeCommands(context) }
        if let input {
            let gain = input.stream.isSimulated ? simulatedTarget.withLock { $0.inputGain } : 1
            input.kernel.capture(from: input.stream, gain: gain)
        }
        var slices = 0
        if let output {
            // The server: the room in its buffer now; the simulated device: what it played since.
            budget = output.isSimulated ? min(budget + output.writableFrames, 4 * frames) : output.writableFrames
            while budget >= frames, slices < 8 {
                renderSlice(plan, to: output)
                budget -= frames
                slices += 1
            }
        } else if let input {
            while input.kernel.available >= frames, slices < 8 {
                renderSlice(plan, to: nil)
                slices += 1
            }
        }
    }

    private func renderSlice(_ plan: RenderPlan, to output: SampleOutput?) {
        context.slice &+= 1
        for step in plan.sideRoots { step.pull(frames, context) }
        if let output {
            if let root = plan.root {
                let block = root.pull(frames, context)
                interleaved.withUnsafeMutableBufferPointer { samples in
                    for channel in 0..<channels {
                        let source = block.channel(min(channel, block.channels - 1))
                        for frame in 0..<frames { samples[frame * channels + channel] = source[frame] }
                    }
                }
            } else {
                interleaved.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
            if output.isSimulated {
                let (gain, port) = simulatedTarget.withLock { ($0.gain, $0.port) }
                try? output.write(interleaved, gain: gain, port: port)
            } else {
                try? output.write(interleaved, gain: 1, port: nil)
            }
        }
        context.sampleTime += Int64(frames)
        rendered.store(context.sampleTime, ordering: .relaxed)
    }

    private static func nanoseconds(_ time: timespec) -> Int { time.tv_sec * 1_000_000_000 + time.tv_nsec }

    private static func advance(_ time: inout timespec, by nanoseconds: Int) {
        let total = Self.nanoseconds(time) + nanoseconds
        time.tv_sec = total / 1_000_000_000
        time.tv_nsec = total % 1_000_000_000
    }
}
