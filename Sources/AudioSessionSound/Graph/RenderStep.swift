import Synchronization

/// What a node of the engine's graph does on the render thread: renders `frames` frames into its
/// step's output, pulling its inputs through the step's links. Kernels that keep state (a player
/// node's schedule, its position) live as long as their node; everything else a cycle touches is
/// in the compiled plan, made on the control side (SPEC EN9).
package class RenderKernel: @unchecked Sendable {
    package init() {}
    /// On the render thread. The step's output block holds `frames` frames afterwards.
    package func render(frames: Int, step: RenderStep, context: RenderContext) {
        step.output.clear(frames)
        step.output.frames = frames
    }
    /// On the render thread (or the control side while no render thread runs): commands sent by
    /// the control side since the last cycle.
    package func takeCommands(_ context: RenderContext) {}
    /// What the step's output is multiplied by after its tap has it (a mixer's `outputVolume`).
    package var gainAfterTap: Float { 1 }
    /// On the control side, when a plan is compiled: what this node needs for that plan's format
    /// (a time-stretcher, scratch buffers), made here so the render thread never makes it.
    package func makeState(channels: Int, sampleRate: Double, capacity: Int) throws(MediaError) -> AnyObject? { nil }
}

/// A source's volume and pan where it enters a mixer (`AVAudioMixing`), written by the control
/// side, read by the render thread: atomics, no lock.
package final class MixingParameters: Sendable {
    private let volumeBits = Atomic<UInt32>(Float(1).bitPattern)
    private let panBits = Atomic<UInt32>(Float(0).bitPattern)
    package init() {}
    package var volume: Float {
        get { Float(bitPattern: volumeBits.load(ordering: .relaxed)) }
        set { volumeBits.store(newValue.bitPattern, ordering: .relaxed) }
    }
    /// −1 (left) … 1 (right).
    package var pan: Float {
        get { Float(bitPattern: panBits.load(ordering: .relaxed)) }
        set { panBits.store(newValue.bitPattern, ordering: .relaxed) }
    }
}

/// One node in a compiled plan: its kernel, its output format and block, its inputs and its tap.
package final class RenderStep: @unchecked Sendable {
    package let name: String
    package let kernel: RenderKernel
    package let channels: Int
    package let sampleRate: Double
    package let output: SampleBlock
    package let inputs: [RenderLink]
    package let tap: TapRecorder?
    /// The kernel's own state for this plan (`makeState`).
    package let state: AnyObject?
    private var renderedCycle: UInt64 = .max
    private var renderedFrames = 0

    /// - Throws: when the kernel's state cannot be made.
    package init(
        name: String, kernel: RenderKernel, channels: Int, sampleRate: Double, capacity: Int, inputs: [RenderLink],
        tap: TapRecorder?
    ) throws(MediaError) {
        state = try kernel.makeState(channels: channels, sampleRate: sampleRate, capacity: capacity)
        self.name = name
        self.kernel = kernel
        self.channels = channels
        self.sampleRate = sampleRate
        output = SampleBlock(channels: channels, capacity: capacity)
        self.inputs = inputs
        self.tap = tap
    }

    /// How many pull it: its links and, for a side root, the render loop (set while compiling).
    package var consumers = 0

    /// Renders this node's next `frames` frames (and hands them to its tap). A node with more than
    /// one consumer (the input node feeding the mixer and tapped too) renders once per slice and
    /// each consumer gets the same frames; a node with one consumer renders at each pull (a time
    /// effect or a converter pulls its input in pieces of its own).
    @discardableResult
    package func pull(_ frames: Int, _ context: RenderContext) -> SampleBlock {
        let frames = min(frames, output.capacity)
        let shared = consumers > 1
        if shared, renderedCycle == context.slice, renderedFrames == frames { return output }
        kernel.render(frames: frames, step: self, context: context)
        tap?.record(output, frames: frames)
        let gain = kernel.gainAfterTap
        if gain != 1 {
            for channel in 0..<output.channels {
                let samples = output.channel(channel)
                for frame in 0..<frames { samples[frame] *= gain }
            }
        }
        if shared { (renderedCycle, renderedFrames) = (context.slice, frames) }
        return output
    }
}

/// An input of a step: its source, converted to the step's rate when they differ (the one
/// converter), and the source's mixing parameters.
package final class RenderLink: @unchecked Sendable {
    package let source: RenderStep
    package let bus: Int
    package let converter: RateConverter?
    package let mixing: MixingParameters
    private let converted: SampleBlock?
    private let context = ContextBox()

    /// - Throws: when the converter cannot be made.
    package init(source: RenderStep, bus: Int, toRate rate: Double, mixing: MixingParameters, capacity: Int) throws(MediaError) {
        self.source = source
        self.bus = bus
        self.mixing = mixing
        source.consumers += 1
        if source.sampleRate != rate {
            let converter = try RateConverter(
                channels: source.channels, from: source.sampleRate, to: rate, maximumFrames: capacity)
            let context = context
            converter.source = { [source] block, count in
                guard let renderContext = context.value else { return block.clear(count) }
                let rendered = source.pull(count, renderContext)
                for channel in 0..<block.channels {
                    block.channel(channel).update(from: rendered.channel(channel), count: min(count, rendered.frames))
                }
            }
            self.converter = converter
            converted = SampleBlock(channels: source.channels, capacity: capacity)
        } else {
            converter = nil
            converted = nil
        }
    }

    /// The source's next `frames` frames at the step's rate, in the source's channels.
    package func fetch(_ frames: Int, _ context: RenderContext) -> SampleBlock {
        guard let converter, let converted else { return source.pull(frames, context) }
        self.context.value = context
        converter.convert(frames: frames, into: converted)
        return converted
    }

    private final class ContextBox: @unchecked Sendable { var value: RenderContext? }
}

/// What a render cycle shares with every kernel: where it reports to the control side, and the
/// output's sample time at the cycle's first frame.
package final class RenderContext: @unchecked Sendable {
    /// Render thread → control side (a buffer consumed, a late cycle).
    package let events: SingleProducerRing<RenderEvent>
    /// The output's sample time at this cycle's first frame.
    package var sampleTime: Int64 = 0
    /// Which slice is being rendered (a node renders once per slice).
    package var slice: UInt64 = 0

    package init(capacity: Int = 4096) { events = SingleProducerRing(capacity: capacity) }
}

/// What the render thread tells the control side.
package enum RenderEvent: Sendable {
    /// A player's scheduled segment is done (played, or dropped by a stop or an interrupt): its token.
    case segmentDone(token: Int, played: Bool)
}
