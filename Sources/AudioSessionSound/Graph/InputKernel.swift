/// The input node's render side (SPEC EN3, EN5): what the app's capture stream recorded, kept in
/// a ring of its own on the render thread, handed out a cycle's frames at a time in the route's
/// input format (the input node does not convert). Before the first slice it waits for one whole
/// slice, so that a cycle's jitter does not become a gap; a slice the capture has not delivered is
/// silence, counted (`shortFrames`).
package final class InputKernel: RenderKernel, @unchecked Sendable {
    /// The capture's channels (1 or 2), set while no render thread runs (`configure`).
    package private(set) var channels = 1
    private let ring: UnsafeMutablePointer<Float>
    private let capacity = 192_000  // frames: a second at the highest rate
    private var readIndex = 0  // frames, counting up
    private var writeIndex = 0
    private var started = false
    /// Frames handed out as silence because the capture had not delivered them.
    package private(set) var shortFrames = 0

    override package init() {
        ring = .allocate(capacity: capacity * 2)
        ring.initialize(repeating: 0, count: capacity * 2)
    }

    /// The capture's channels (1 or 2), before a render thread starts; what it held is dropped.
    package func configure(channels: Int) {
        self.channels = min(2, max(1, channels))
        reset()
    }

    deinit { ring.deallocate() }

    /// Frames recorded and not yet handed out.
    package var available: Int { writeIndex - readIndex }

    /// On the render thread: what the capture recorded since the last call (the oldest frames
    /// dropped when more than a second waits).
    package func capture(from input: SampleInput, gain: Float) {
        input.read(gain: gain) { samples in
            let frames = samples.count / channels
            for frame in 0..<frames {
                let base = ((writeIndex + frame) % capacity) * channels
                for channel in 0..<channels { ring[base + channel] = samples[frame * channels + channel] }
            }
            writeIndex += frames
            if writeIndex - readIndex > capacity { readIndex = writeIndex - capacity }
        }
    }

    /// Forgets what it holds (a stop).
    package func reset() {
        readIndex = writeIndex
        started = false
    }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.frames = frames
        if !started {
            guard available >= frames else { return out.clear(frames) }
            started = true
        }
        let count = min(frames, available)
        for channel in 0..<out.channels {
            let target = out.channel(channel)
            let source = min(channel, channels - 1)
            for frame in 0..<count { target[frame] = ring[((readIndex + frame) % capacity) * channels + source] }
            if count < frames { (target + count).update(repeating: 0, count: frames - count) }
        }
        readIndex += count
        shortFrames += frames - count
    }
}

/// The app's receiver block (AVAudioSinkNode): each cycle's frames of its one input, on the
/// render thread.
package final class SinkKernel: RenderKernel, @unchecked Sendable {
    /// (the frames, how many, their sample time).
    package typealias Receive = @Sendable (SampleBlock, Int, Int64) -> Void
    private let receive: Receive
    private var sampleTime: Int64 = 0

    package init(_ receive: @escaping Receive) { self.receive = receive }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        step.output.frames = frames
        guard let link = step.inputs.first else { return }
        let block = link.fetch(frames, context)
        receive(block, min(frames, block.frames), sampleTime)
        sampleTime += Int64(frames)
    }
}
