import Synchronization

/// A player node's render side (AVAudioPlayerNode, SPEC EN4): the segments scheduled on it,
/// played in order while it plays. The control side sends it commands through a ring; it tells
/// the control side through the context's events which segments are done. It owns its queue.
package final class PlayerKernel: RenderKernel, @unchecked Sendable {
    /// A stretch of samples to play: frames `start..<end` of a block, once or looping.
    package struct Segment: Sendable {
        package var block: SampleBlock
        package var start: Int
        package var end: Int
        package var loops: Bool
        package var token: Int
        /// Player time (in frames) before which it does not start (`scheduleBuffer(at:)`), if any.
        package var at: Int64?

        package init(block: SampleBlock, start: Int, end: Int, loops: Bool, token: Int, at: Int64?) {
            (self.block, self.start, self.end, self.loops, self.token, self.at) = (block, start, end, loops, token, at)
        }
    }

    package enum Command: Sendable {
        /// `interrupts`: what was scheduled before is dropped at once; `atLoop`: at the end of the
        /// current loop.
        case schedule(Segment, interrupts: Bool, atLoop: Bool)
        case play
        case pause
        /// Drops everything scheduled (each segment reported done, not played) and the position.
        case stop
    }

    private let commands = SingleProducerRing<Command>(capacity: 1024)
    private var queue: [Segment] = []
    private var position = 0
    private var playing = false
    private var endCurrentLoop = false
    /// The player's time in frames: counted while it plays (`playerTime(forNodeTime:)`).
    private let playerFrames = Atomic<Int64>(0)

    override package init() {
        queue.reserveCapacity(1024)
    }

    /// Frames played since its last stop (the player time's sample time).
    package var playerSampleTime: Int64 { playerFrames.load(ordering: .relaxed) }

    /// From the control side: false when the ring is full (1,024 commands waiting).
    package func send(_ command: Command) -> Bool { commands.push(command) }

    override package func takeCommands(_ context: RenderContext) {
        while let command = commands.pop() {
            switch command {
            case .schedule(let segment, let interrupts, let atLoop):
                if interrupts {
                    dropAll(context)
                } else if atLoop, let first = queue.first, first.loops {
                    endCurrentLoop = true
                    // Everything after the current loop goes; the new segment follows it.
                    while queue.count > 1 { done(queue.removeLast(), played: false, context) }
                }
                if queue.count < queue.capacity { queue.append(segment) } else { done(segment, played: false, context) }
            case .play: playing = true
            case .pause: playing = false
            case .stop:
                playing = false
                dropAll(context)
                playerFrames.store(0, ordering: .relaxed)
            }
        }
    }

    private func dropAll(_ context: RenderContext) {
        for segment in queue { done(segment, played: false, context) }
        queue.removeAll(keepingCapacity: true)
        position = 0
        endCurrentLoop = false
    }

    private func done(_ segment: Segment, played: Bool, _ context: RenderContext) {
        _ = context.events.push(.segmentDone(token: segment.token, played: played))
    }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.frames = frames
        guard playing else { return out.clear(frames) }
        var written = 0
        let now = playerFrames.load(ordering: .relaxed)
        while written < frames, let segment = queue.first {
            if let at = segment.at, at > now + Int64(written) {
                // Silence until its time.
                let gap = Int(min(Int64(frames - written), at - now - Int64(written)))
                for channel in 0..<out.channels { (out.channel(channel) + written).update(repeating: 0, count: gap) }
                written += gap
                continue
            }
            let from = segment.start + position
            let count = min(frames - written, segment.end - from)
            if count > 0 {
                for channel in 0..<out.channels {
                    let source = segment.block.channel(min(channel, segment.block.channels - 1)) + from
                    (out.channel(channel) + written).update(from: source, count: count)
                }
                written += count
                position += count
            }
            if segment.start + position >= segment.end {
                position = 0
                if segment.loops && !endCurrentLoop { continue }
                endCurrentLoop = false
                done(queue.removeFirst(), played: true, context)
            }
        }
        if written < frames {
            for channel in 0..<out.channels { (out.channel(channel) + written).update(repeating: 0, count: frames - written) }
        }
        playerFrames.store(now + Int64(frames), ordering: .relaxed)
    }
}
