import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A mixer (AVAudioMixerNode, the main mixer): every input, at its rate converted to the mixer's
/// (its link), in its channel count mapped to the mixer's, times its volume, panned, added; then
/// times the mixer's output volume — after a tap on the mixer has the mix, as real recorders rely
/// on (a mixer at `outputVolume` 0 so nothing is monitored, its tap recording). Mono into stereo is spread by pan (equal power); more channels
/// into fewer are averaged; fewer into more fill by index. No allocation.
package final class MixerKernel: RenderKernel, @unchecked Sendable {
    private let outputVolumeBits = Atomic<UInt32>(Float(1).bitPattern)

    override package init() {}

    /// The mixer's `outputVolume`, written by the control side.
    package var outputVolume: Float {
        get { Float(bitPattern: outputVolumeBits.load(ordering: .relaxed)) }
        set { outputVolumeBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.clear(frames)
        out.frames = frames
        for link in step.inputs {
            let block = link.fetch(frames, context)
            let count = min(frames, block.frames)
            Self.add(block, count: count, into: out, volume: link.mixing.volume, pan: link.mixing.pan)
        }
    }

    override package var gainAfterTap: Float { outputVolume }

    /// Adds `block` into `out`, channels mapped, at `volume` and `pan`.
    static func add(_ block: SampleBlock, count: Int, into out: SampleBlock, volume: Float, pan: Float) {
        let inChannels = block.channels
        let outChannels = out.channels
        if inChannels == 1 && outChannels == 2 {
            // Equal-power pan: centre is −3 dB on each side, hard left is the left channel only.
            let angle = (Double(max(-1, min(1, pan))) + 1) * Double.pi / 4
            let left = volume * Float(cos(angle)) * Float(2.0.squareRoot())
            let right = volume * Float(sin(angle)) * Float(2.0.squareRoot())
            let source = block.channel(0)
            let l = out.channel(0)
            let r = out.channel(1)
            for frame in 0..<count {
                l[frame] += source[frame] * min(1, left)
                r[frame] += source[frame] * min(1, right)
            }
            return
        }
        // Stereo pan: a balance (the far side turned down).
        var gains = (Float(1), Float(1))
        if outChannels == 2 && inChannels == 2 && pan != 0 {
            gains = pan > 0 ? (1 - pan, 1) : (1, 1 + pan)
        }
        if inChannels > outChannels {
            // Fewer out: each output channel the average of the inputs that fold onto it.
            let fold = Float(inChannels / outChannels)
            for channel in 0..<inChannels {
                let target = out.channel(min(channel % outChannels, outChannels - 1))
                let source = block.channel(channel)
                let gain = volume / fold
                for frame in 0..<count { target[frame] += source[frame] * gain }
            }
            return
        }
        for channel in 0..<outChannels {
            let source = block.channel(channel % inChannels)
            let target = out.channel(channel)
            let gain = volume * (outChannels == 2 ? (channel == 0 ? gains.0 : gains.1) : 1)
            for frame in 0..<count { target[frame] += source[frame] * gain }
        }
    }
}

/// A node that passes its one input on (the output node: its input converted to the hardware's
/// rate by the link, and its channels mapped as a mixer maps them).
package final class PassThroughKernel: RenderKernel, @unchecked Sendable {
    override package init() {}

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.clear(frames)
        out.frames = frames
        guard let link = step.inputs.first else { return }
        let block = link.fetch(frames, context)
        MixerKernel.add(block, count: min(frames, block.frames), into: out, volume: 1, pan: 0)
    }
}

/// The app's render block (AVAudioSourceNode): asked for each cycle's frames, planar float.
package final class BlockKernel: RenderKernel, @unchecked Sendable {
    /// (frames, the block to fill, its sample time) → whether it wrote anything; silence if not.
    package typealias Render = @Sendable (Int, SampleBlock, Int64) -> Bool
    private let block: Render
    private var sampleTime: Int64 = 0

    package init(_ block: @escaping Render) { self.block = block }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.frames = frames
        if !block(frames, out, sampleTime) { out.clear(frames) }
        sampleTime += Int64(frames)
    }
}
