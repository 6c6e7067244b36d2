import CSoundTouch
import Synchronization

/// AVAudioUnitTimePitch's render side (SPEC EN4): its one input stretched in time by `rate`
/// (1/32–32) without changing the pitch, and its pitch moved by `pitch` cents (±2400), through
/// SoundTouch — a well-kept time-stretching library, never an algorithm of ours. Each plan has a
/// stretcher of its own, made on the control side (`makeState`); `bypass` passes the input on.
package final class TimePitchKernel: RenderKernel, @unchecked Sendable {
    private let rateBits = Atomic<UInt32>(Float(1).bitPattern)
    private let pitchBits = Atomic<UInt32>(Float(0).bitPattern)
    private let overlapBits = Atomic<UInt32>(Float(8).bitPattern)
    private let bypassed = Atomic<Bool>(false)

    override package init() {}

    package var rate: Float {
        get { Float(bitPattern: rateBits.load(ordering: .relaxed)) }
        set { rateBits.store(min(32, max(1.0 / 32, newValue)).bitPattern, ordering: .relaxed) }
    }
    package var pitch: Float {
        get { Float(bitPattern: pitchBits.load(ordering: .relaxed)) }
        set { pitchBits.store(min(2_400, max(-2_400, newValue)).bitPattern, ordering: .relaxed) }
    }
    /// Apple's 3–32 (default 8): SoundTouch's overlap in milliseconds.
    package var overlap: Float {
        get { Float(bitPattern: overlapBits.load(ordering: .relaxed)) }
        set { overlapBits.store(min(32, max(3, newValue)).bitPattern, ordering: .relaxed) }
    }
    package var bypass: Bool {
        get { bypassed.load(ordering: .relaxed) }
        set { bypassed.store(newValue, ordering: .relaxed) }
    }

    /// One plan's stretcher and its interleaved scratch.
    final class Stretcher: @unchecked Sendable {
        let handle: UnsafeMutableRawPointer
        let channels: Int
        let chunk = 256
        let input: UnsafeMutablePointer<Float>
        let output: UnsafeMutablePointer<Float>
        var applied: (rate: Float, pitch: Float, overlap: Float) = (1, 0, 8)

        init(channels: Int, sampleRate: Double, capacity: Int) throws(MediaError) {
            guard let handle = soundtouch_createInstance() else { throw MediaError("SoundTouch could not make a stretcher") }
            self.handle = handle
            self.channels = channels
            // The rate and channels first: SoundTouch refuses samples before them.
            soundtouch_setSampleRate(handle, UInt32(sampleRate))
            soundtouch_setChannels(handle, UInt32(channels))
            input = .allocate(capacity: chunk * channels)
            output = .allocate(capacity: max(capacity, chunk) * channels)
            warmUp(frames: max(capacity, chunk))
        }

        /// EN9: SoundTouch grows its buffers as they fill and never shrinks them; here, on the
        /// control side, they are grown to what a render cycle of `frames` can ask at the fastest
        /// and slowest tempo (as `render` pulls: chunks until `frames` are there), then emptied — so
        /// the render thread does not allocate in them.
        private func warmUp(frames: Int) {
            input.update(repeating: 0, count: chunk * channels)
            for tempo: Float in [32, 1.0 / 32] {
                soundtouch_setTempo(handle, tempo)
                for _ in 0..<3 {
                    fill(frames) {}  // silence
                    _ = soundtouch_receiveSamples(handle, output, UInt32(frames))
                }
            }
            soundtouch_clear(handle)
            soundtouch_setTempo(handle, 1)
        }

        /// Puts chunks of `input`, each made by `make`, until `frames` can be received (at most
        /// 256 chunks a cycle): what a render cycle and the warm-up both do.
        func fill(_ frames: Int, _ make: () -> Void) {
            var pulls = 0
            while Int(soundtouch_numSamples(handle)) < frames, pulls < 256 {
                make()
                _ = soundtouch_putSamples(handle, input, UInt32(chunk))
                pulls += 1
            }
        }

        deinit {
            soundtouch_destroyInstance(handle)
            input.deallocate()
            output.deallocate()
        }
    }

    override package func makeState(channels: Int, sampleRate: Double, capacity: Int) throws(MediaError) -> AnyObject? {
        try Stretcher(channels: channels, sampleRate: sampleRate, capacity: capacity)
    }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.frames = frames
        guard let link = step.inputs.first, let stretcher = step.state as? Stretcher else { return out.clear(frames) }
        if bypass { return Self.passOn(link, frames: frames, into: out, context) }
        let wanted = (rate: rate, pitch: pitch, overlap: overlap)
        if wanted != stretcher.applied {
            soundtouch_setTempo(stretcher.handle, wanted.rate)
            soundtouch_setPitchSemiTones(stretcher.handle, wanted.pitch / 100)
            _ = soundtouch_setSetting(stretcher.handle, 5, Int32(wanted.overlap))  // SETTING_OVERLAP_MS
            stretcher.applied = wanted
        }
        let channels = stretcher.channels
        stretcher.fill(frames) {
            let block = link.fetch(stretcher.chunk, context)
            for frame in 0..<stretcher.chunk {
                for channel in 0..<channels {
                    stretcher.input[frame * channels + channel] = block.channel(min(channel, block.channels - 1))[frame]
                }
            }
        }
        let got = Int(soundtouch_receiveSamples(stretcher.handle, stretcher.output, UInt32(frames)))
        for channel in 0..<out.channels {
            let target = out.channel(channel)
            let source = min(channel, channels - 1)
            for frame in 0..<got { target[frame] = stretcher.output[frame * channels + source] }
            if got < frames { (target + got).update(repeating: 0, count: frames - got) }
        }
    }
}

/// AVAudioUnitVarispeed's render side (SPEC EN4): its one input played faster or slower, the
/// pitch following (`rate` 0.25–4), resampled by the one converter (libsamplerate) at a ratio
/// that may change from cycle to cycle; `bypass` passes the input on.
package final class VarispeedKernel: RenderKernel, @unchecked Sendable {
    private let rateBits = Atomic<UInt32>(Float(1).bitPattern)
    private let bypassed = Atomic<Bool>(false)

    override package init() {}

    package var rate: Float {
        get { Float(bitPattern: rateBits.load(ordering: .relaxed)) }
        set { rateBits.store(min(4, max(0.25, newValue)).bitPattern, ordering: .relaxed) }
    }
    package var bypass: Bool {
        get { bypassed.load(ordering: .relaxed) }
        set { bypassed.store(newValue, ordering: .relaxed) }
    }

    /// One plan's converter, pulling the input through the context it is given each cycle.
    final class Speed: @unchecked Sendable {
        let converter: RateConverter
        let pull = PullBox()

        init(channels: Int, sampleRate: Double, capacity: Int) throws(MediaError) {
            converter = try RateConverter(channels: channels, from: sampleRate, to: sampleRate, maximumFrames: capacity)
            let pull = pull
            converter.source = { block, count in
                guard let link = pull.link, let context = pull.context else { return block.clear(count) }
                let rendered = link.fetch(count, context)
                for channel in 0..<block.channels {
                    block.channel(channel).update(from: rendered.channel(min(channel, rendered.channels - 1)), count: count)
                }
            }
        }
    }

    final class PullBox: @unchecked Sendable {
        var link: RenderLink?
        var context: RenderContext?
    }

    override package func makeState(channels: Int, sampleRate: Double, capacity: Int) throws(MediaError) -> AnyObject? {
        try Speed(channels: channels, sampleRate: sampleRate, capacity: capacity)
    }

    override package func render(frames: Int, step: RenderStep, context: RenderContext) {
        let out = step.output
        out.frames = frames
        guard let link = step.inputs.first, let speed = step.state as? Speed else { return out.clear(frames) }
        if bypass { return Self.passOn(link, frames: frames, into: out, context) }
        speed.pull.link = link
        speed.pull.context = context
        speed.converter.ratio = 1 / Double(rate)
        speed.converter.convert(frames: frames, into: out)
    }
}

extension RenderKernel {
    /// A time effect bypassed: its input as it comes, channels mapped by index.
    static func passOn(_ link: RenderLink, frames: Int, into out: SampleBlock, _ context: RenderContext) {
        let block = link.fetch(frames, context)
        for channel in 0..<out.channels {
            out.channel(channel).update(from: block.channel(min(channel, block.channels - 1)), count: frames)
        }
    }
}
