import AudioSessionSound
import Foundation

/// What an `AVAudioConverter` input block says of the input it returns.
public enum AVAudioConverterInputStatus: Int, Sendable {
    /// The buffer holds input.
    case haveData = 0
    /// No input now; ask again later.
    case noDataNow = 1
    /// No input ever again.
    case endOfStream = 2
}

/// What `convert(to:error:withInputFrom:)` made.
public enum AVAudioConverterOutputStatus: Int, Sendable {
    /// The output buffer holds converted frames.
    case haveData = 0
    /// The input block had no data now; the output holds what could be made.
    case inputRanDry = 1
    /// The input ended and everything was converted.
    case endOfStream = 2
    /// The conversion failed; the error says why.
    case error = 3
}

/// Where a method that fails writes its error, as iOS code passes it (`error: &error`). Apple's is
/// an autoreleasing pointer, which needs the Objective-C runtime; `&error` builds with either.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

public typealias AVAudioConverterInputBlock = (
    _ inNumberOfPackets: AVAudioPacketCount, _ outStatus: UnsafeMutablePointer<AVAudioConverterInputStatus>
) -> AVAudioBuffer?

/// Apple's `AVAudioConverter` for linear PCM (SPEC EN2): sample rate (libsamplerate's sinc
/// converter, the one converter; `sampleRateConverterQuality` picks its quality), channel count
/// (mono to more duplicates; more to mono averages; `channelMap` says otherwise), sample format and
/// interleaving. `convert(to:from:)` converts without changing the rate; the input-block form
/// converts anything, pulling input as it needs it. `nil` for a format that is not linear PCM.
open class AVAudioConverter: NSObject, @unchecked Sendable {
    public let inputFormat: AVAudioFormat
    public let outputFormat: AVAudioFormat
    /// For each output channel, the input channel it takes (-1: silence); nil: the default mapping.
    open var channelMap: [NSNumber]?
    /// `AVAudioQuality`'s raw value: min and low the fastest sinc, medium and high the medium one, max the best.
    open var sampleRateConverterQuality: Int = AVAudioQuality.max.rawValue
    /// Accepted and kept (`AVSampleRateConverterAlgorithm_Normal` and the others): the quality decides here.
    open var sampleRateConverterAlgorithm: String?
    private var resampler: PushedRateConverter?
    private var pending: [Float] = []  // interleaved input not yet converted, the input's channels
    private var inputEnded = false
    private var flushed = false

    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        guard fromFormat.commonFormat != .otherFormat, toFormat.commonFormat != .otherFormat, fromFormat.sampleRate > 0,
            toFormat.sampleRate > 0
        else { return nil }
        inputFormat = fromFormat
        outputFormat = toFormat
        super.init()
    }

    /// Forgets what it holds (input not yet converted, the resampler's state, an input's end).
    open func reset() {
        pending.removeAll()
        resampler?.reset()
        (inputEnded, flushed) = (false, false)
    }

    /// Converts one buffer at the same sample rate: its frames in the output's sample format,
    /// channels and interleaving. - Throws: -50 (naming both rates) for a change of rate (the
    /// input-block form does that), or a buffer of another format than the converter's.
    open func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard inputFormat.sampleRate == outputFormat.sampleRate else {
            throw Self.paramError(
                "AVAudioConverter.convert(to:from:) does not change the sample rate (\(inputFormat.sampleRate) → "
                    + "\(outputFormat.sampleRate) Hz): use convert(to:error:withInputFrom:)")
        }
        try check(inputBuffer.format, is: inputFormat, "input")
        try check(outputBuffer.format, is: outputFormat, "output")
        let frames = Int(min(inputBuffer.frameLength, outputBuffer.frameCapacity))
        let inChannels = Int(inputFormat.channelCount)
        var interleaved = [Float](repeating: 0, count: frames * inChannels)
        for frame in 0..<frames {
            for channel in 0..<inChannels {
                interleaved[frame * inChannels + channel] = inputBuffer.sample(channel: channel, frame: frame)
            }
        }
        write(interleaved, frames: frames, into: outputBuffer, at: 0)
        outputBuffer.frameLength = AVAudioFrameCount(frames)
    }

    /// Fills the output buffer, asking the block for input as it needs it (EN2's statuses).
    open func convert(
        to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer, withInputFrom inputBlock: AVAudioConverterInputBlock
    ) -> AVAudioConverterOutputStatus {
        guard let output = outputBuffer as? AVAudioPCMBuffer, output.format.isEqual(outputFormat) else {
            outError?.pointee = Self.paramError("AVAudioConverter: the output buffer is not in \(outputFormat)")
            return .error
        }
        if resampler == nil, inputFormat.sampleRate != outputFormat.sampleRate {
            do throws(MediaError) {
                resampler = try PushedRateConverter(
                    channels: Int(inputFormat.channelCount), from: inputFormat.sampleRate, to: outputFormat.sampleRate,
                    quality: quality)
            } catch {
                outError?.pointee = Self.paramError("AVAudioConverter: \(error.description)")
                return .error
            }
        }
        let capacity = Int(output.frameCapacity)
        let inChannels = Int(inputFormat.channelCount)
        var made = 0
        var ranDry = false
        var converted = [Float](repeating: 0, count: capacity * inChannels)
        while made < capacity, !flushed {
            if pending.isEmpty, !inputEnded {
                var status = AVAudioConverterInputStatus.haveData
                let wanted = AVAudioPacketCount(max(1, Double(capacity - made) / ratio))
                let given = inputBlock(wanted, &status)
                switch status {
                case .haveData:
                    guard let buffer = given as? AVAudioPCMBuffer else { continue }
                    guard buffer.format.sampleRate == inputFormat.sampleRate,
                        buffer.format.channelCount == inputFormat.channelCount
                    else {
                        outError?.pointee = Self.paramError(
                            "AVAudioConverter: the input block gave \(buffer.format), not the converter's \(inputFormat)")
                        return .error
                    }
                    for frame in 0..<Int(buffer.frameLength) {
                        for channel in 0..<inChannels { pending.append(buffer.sample(channel: channel, frame: frame)) }
                    }
                    if buffer.frameLength == 0 { continue }
                case .noDataNow: ranDry = true
                case .endOfStream: inputEnded = true
                }
                if ranDry { break }
            }
            if let resampler {
                let (used, out) = pending.withUnsafeBufferPointer { input in
                    converted.withUnsafeMutableBufferPointer { room in
                        resampler.process(
                            input, into: UnsafeMutableBufferPointer(rebasing: room[(made * inChannels)...]), ending: inputEnded)
                    }
                }
                pending.removeFirst(used * inChannels)
                made += out
                if inputEnded, pending.isEmpty, out == 0 { flushed = true }
            } else {
                let frames = min(pending.count / inChannels, capacity - made)
                converted.replaceSubrange(
                    (made * inChannels)..<((made + frames) * inChannels), with: pending.prefix(frames * inChannels))
                pending.removeFirst(frames * inChannels)
                made += frames
                if inputEnded, pending.isEmpty { flushed = true }
            }
        }
        write(converted, frames: made, into: output, at: 0)
        output.frameLength = AVAudioFrameCount(made)
        if made > 0 { return .haveData }
        return flushed ? .endOfStream : .inputRanDry
    }

    private var ratio: Double { outputFormat.sampleRate / inputFormat.sampleRate }

    private var quality: RateConverter.Quality {
        switch sampleRateConverterQuality {
        case ..<AVAudioQuality.medium.rawValue: .fastest
        case ..<AVAudioQuality.max.rawValue: .medium
        default: .best
        }
    }

    /// Interleaved input-channel frames into the output buffer, channels mapped.
    private func write(_ samples: [Float], frames: Int, into output: AVAudioPCMBuffer, at start: Int) {
        let inChannels = Int(inputFormat.channelCount)
        let outChannels = Int(outputFormat.channelCount)
        let map = channelMap?.map(\.intValue)
        for frame in 0..<frames {
            let base = frame * inChannels
            for channel in 0..<outChannels {
                let value: Float
                if let map {
                    let source = channel < map.count ? map[channel] : -1
                    value = source >= 0 && source < inChannels ? samples[base + source] : 0
                } else if outChannels < inChannels && outChannels == 1 {
                    var sum: Float = 0
                    for index in 0..<inChannels { sum += samples[base + index] }
                    value = sum / Float(inChannels)
                } else {
                    value = samples[base + min(channel, inChannels - 1)]
                }
                output.setSample(value, channel: channel, frame: start + frame)
            }
        }
    }

    private func check(_ format: AVAudioFormat, is expected: AVAudioFormat, _ which: String) throws {
        guard format.isEqual(expected) else {
            throw Self.paramError(
                "AVAudioConverter: the \(which) buffer is \(format), the converter's \(which) format \(expected)")
        }
    }

    private static func paramError(_ description: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: -50, userInfo: [NSLocalizedDescriptionKey: description])
    }
}

/// `sampleRateConverterAlgorithm`'s values, accepted and kept.
public let AVSampleRateConverterAlgorithm_Normal = "AVSampleRateConverterAlgorithm_Normal"
public let AVSampleRateConverterAlgorithm_Mastering = "AVSampleRateConverterAlgorithm_Mastering"
public let AVSampleRateConverterAlgorithm_MinimumPhase = "AVSampleRateConverterAlgorithm_MinimumPhase"
