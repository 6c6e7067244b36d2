import CSampleRate

/// The one sample-rate converter (ARCHITECTURE rev. 6): libsamplerate's band-limited sinc
/// interpolation, pulled — asked for a number of output frames, it asks its source for as many
/// input frames as that takes, in chunks. The engine's mixer inputs and output node use it, and
/// AVAudioConverter. Everything is allocated when it is made; `convert` allocates nothing.
package final class RateConverter: @unchecked Sendable {
    /// What libsamplerate offers, best last; each its stated quality (libsamplerate's docs).
    package enum Quality: Sendable {
        /// SRC_SINC_FASTEST: 97 dB signal-to-noise, 80 % of the band kept.
        case fastest
        /// SRC_SINC_MEDIUM_QUALITY: 97 dB, 90 %.
        case medium
        /// SRC_SINC_BEST_QUALITY: 97 dB, 97 %.
        case best

        var converterType: Int32 {
            switch self {
            case .fastest: Int32(SRC_SINC_FASTEST)
            case .medium: Int32(SRC_SINC_MEDIUM_QUALITY)
            case .best: Int32(SRC_SINC_BEST_QUALITY)
            }
        }
    }

    package let channels: Int
    package let inputRate: Double
    package let outputRate: Double
    /// Fills the block with the given number of input frames (planar); set before the first `convert`.
    package var source: (@Sendable (SampleBlock, Int) -> Void)? {
        get { feeder.source }
        set { feeder.source = newValue }
    }
    private let state: OpaquePointer
    private let feeder: Feeder
    /// Output frames per input frame: the rates' ratio, or another set by the render thread
    /// (AVAudioUnitVarispeed changes it from cycle to cycle).
    package var ratio: Double
    private let interleavedOutput: UnsafeMutablePointer<Float>
    private let maximumFrames: Int

    /// - Throws: libsamplerate's error, in words, when it cannot make the converter.
    package init(
        channels: Int, from inputRate: Double, to outputRate: Double, maximumFrames: Int, quality: Quality = .fastest
    )
        throws(MediaError)
    {
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.maximumFrames = maximumFrames
        let feeder = Feeder(channels: channels)
        var error: Int32 = 0
        let made = src_callback_new(
            { context, data -> Int in
                guard let context, let data else { return 0 }
                return Unmanaged<Feeder>.fromOpaque(context).takeUnretainedValue().fill(data)
            }, quality.converterType, Int32(channels), &error, Unmanaged.passUnretained(feeder).toOpaque())
        guard let made, error == 0 else {
            throw MediaError("the sample-rate converter could not be made: \(String(cString: src_strerror(error)))")
        }
        self.feeder = feeder
        state = made
        ratio = outputRate / inputRate
        interleavedOutput = .allocate(capacity: max(1, maximumFrames * channels))
    }

    deinit {
        src_delete(state)
        interleavedOutput.deallocate()
    }

    /// Exactly `frames` output frames into `block` (planar, from frame 0). From one thread at a time.
    package func convert(frames: Int, into block: SampleBlock) {
        let frames = min(frames, maximumFrames, block.capacity)
        var done = 0
        while done < frames {
            let got = src_callback_read(state, ratio, frames - done, interleavedOutput + done * channels)
            if got <= 0 { break }
            done += got
        }
        for channel in 0..<channels {
            let out = block.channel(channel)
            for frame in 0..<done { out[frame] = interleavedOutput[frame * channels + channel] }
            if done < frames { (out + done).update(repeating: 0, count: frames - done) }
        }
        block.frames = frames
    }

    /// Forgets what it holds (a seek, a stop): the next output starts from fresh input.
    package func reset() { src_reset(state) }

    /// What libsamplerate's callback reaches: the source, and where its chunk is interleaved.
    private final class Feeder: @unchecked Sendable {
        let channels: Int
        let chunk = 256
        let input: SampleBlock
        let interleaved: UnsafeMutablePointer<Float>
        var source: (@Sendable (SampleBlock, Int) -> Void)?

        init(channels: Int) {
            self.channels = channels
            input = SampleBlock(channels: channels, capacity: chunk)
            interleaved = .allocate(capacity: chunk * channels)
        }

        deinit { interleaved.deallocate() }

        /// libsamplerate asks for input: a chunk from the source, interleaved.
        func fill(_ data: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>) -> Int {
            input.clear(chunk)
            source?(input, chunk)
            for channel in 0..<channels {
                let samples = input.channel(channel)
                for frame in 0..<chunk { interleaved[frame * channels + channel] = samples[frame] }
            }
            data.pointee = interleaved
            return chunk
        }
    }
}

extension RateConverter {
    /// A whole signal converted at once (AVAudioConverter's one-shot form, tests): every input frame
    /// in, `count × outputRate / inputRate` frames out.
    package static func convertAll(
        _ planar: [[Float]], from inputRate: Double, to outputRate: Double, quality: Quality = .medium
    )
        throws(MediaError) -> [[Float]]
    {
        let channels = planar.count
        let inputFrames = planar.first?.count ?? 0
        let outputFrames = Int((Double(inputFrames) * outputRate / inputRate).rounded())
        guard channels > 0, outputFrames > 0 else { return planar.map { _ in [] } }
        let converter = try RateConverter(
            channels: channels, from: inputRate, to: outputRate, maximumFrames: outputFrames, quality: quality)
        let position = Counter()
        converter.source = { block, count in
            for channel in 0..<channels {
                let out = block.channel(channel)
                for frame in 0..<count {
                    let index = position.value + frame
                    out[frame] = index < inputFrames ? planar[channel][index] : 0
                }
            }
            position.value += count
        }
        let block = SampleBlock(channels: channels, capacity: outputFrames)
        converter.convert(frames: outputFrames, into: block)
        return (0..<channels).map { Array(UnsafeBufferPointer(start: block.channel($0), count: outputFrames)) }
    }

    private final class Counter: @unchecked Sendable { var value = 0 }
}

/// The same converter, pushed: input given as it comes (interleaved), output taken as it is made
/// — for AVAudioConverter's input block, which may have data now, later or never again.
package final class PushedRateConverter: @unchecked Sendable {
    package let channels: Int
    package let ratio: Double
    private let state: OpaquePointer

    /// - Throws: libsamplerate's error, in words.
    package init(
        channels: Int, from inputRate: Double, to outputRate: Double, quality: RateConverter.Quality = .medium
    )
        throws(MediaError)
    {
        var error: Int32 = 0
        guard let made = src_new(quality.converterType, Int32(channels), &error), error == 0 else {
            throw MediaError("the sample-rate converter could not be made: \(String(cString: src_strerror(error)))")
        }
        self.channels = channels
        ratio = outputRate / inputRate
        state = made
    }

    deinit { src_delete(state) }

    /// Converts what `input` holds (interleaved) into `output`'s room: (input frames used, output
    /// frames made). With `ending`, what the converter still holds comes out too.
    package func process(
        _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>, ending: Bool
    ) -> (
        used: Int, made: Int
    ) {
        var data = SRC_DATA()
        data.data_in = input.baseAddress
        data.input_frames = input.count / channels
        data.data_out = output.baseAddress
        data.output_frames = output.count / channels
        data.end_of_input = ending ? 1 : 0
        data.src_ratio = ratio
        guard src_process(state, &data) == 0 else { return (0, 0) }
        return (Int(data.input_frames_used), Int(data.output_frames_gen))
    }

    package func reset() { src_reset(state) }
}
