import AudioSessionSound
import CAudioSessionServices

/// SO9: the one linear-PCM converter behind Audio Converter Services and the AUConverter unit —
/// samples decoded to float, their channels mapped, the rate changed by libsamplerate's pushed
/// converter (the one AVAudioConverter uses), encoded in the output format. What it takes from
/// its input and has not given out yet it holds until `reset()`. Its owner serialises the calls.
final class CAudioConverter: @unchecked Sendable {
    let input: CPCMFormat
    let output: CPCMFormat
    /// `kAudioConverterSampleRateConverterQuality` (`kAudioConverterQuality_*`).
    private(set) var quality = UInt32(kAudioConverterQuality_High)
    /// For each output channel, the input channel it takes (−1: silence); nil: the default spread.
    var channelMap: [Int32]?
    private var resampler: PushedRateConverter?
    /// Input frames taken and mapped to the output's channels, not yet through the resampler.
    private var held: [Float] = []
    /// Output samples made and not yet given.
    private var made: [Float] = []
    /// The input ended (0 packets): what the resampler held has come out.
    private var ended = false

    static let formatNotSupported = CStatus(Int(kAudioConverterErr_FormatNotSupported))

    /// - Throws: 'fmt?' for anything but SO4's linear PCM on either side.
    init(from source: AudioStreamBasicDescription, to destination: AudioStreamBasicDescription) throws(CStatus) {
        do throws(CStatus) {
            input = try CPCMFormat(source)
            output = try CPCMFormat(destination)
        } catch { throw Self.formatNotSupported }
        try makeResampler()
    }

    init(input: CPCMFormat, output: CPCMFormat) throws(CStatus) {
        (self.input, self.output) = (input, output)
        try makeResampler()
    }

    private func makeResampler() throws(CStatus) {
        guard input.sampleRate != output.sampleRate else { return resampler = nil }
        let grade: RateConverter.Quality =
            switch quality {
            case ..<UInt32(kAudioConverterQuality_Medium): .fastest
            case ..<UInt32(kAudioConverterQuality_Max): .medium
            default: .best
            }
        do {
            resampler = try PushedRateConverter(
                channels: output.channels, from: Double(input.sampleRate), to: Double(output.sampleRate), quality: grade)
        } catch { throw CStatus(Int(kAudioConverterErr_UnspecifiedError)) }
    }

    var changesRate: Bool { resampler != nil }

    func setQuality(_ value: UInt32) throws(CStatus) {
        quality = value
        try makeResampler()
        reset()
    }

    /// Forgets what is held (Apple's AudioConverterReset).
    func reset() {
        held.removeAll(keepingCapacity: true)
        made.removeAll(keepingCapacity: true)
        ended = false
        resampler?.reset()
    }

    /// `frames` input frames at `bytes`, decoded and mapped to the output's channels.
    func take(_ bytes: UnsafeRawPointer, frames: Int) {
        let samples = input.decode(bytes, frames: frames, gain: 1)
        let (from, to) = (input.channels, output.channels)
        if from == to, channelMap == nil { return held.append(contentsOf: samples) }
        held.reserveCapacity(held.count + frames * to)
        for frame in 0..<frames {
            let base = frame * from
            for channel in 0..<to {
                if let map = channelMap {
                    let source = channel < map.count ? Int(map[channel]) : -1
                    held.append(source >= 0 && source < from ? samples[base + source] : 0)
                } else if from == 1 {
                    held.append(samples[base])  // mono to every channel
                } else if to == 1 {
                    var sum: Float = 0
                    for source in 0..<from { sum += samples[base + source] }
                    held.append(sum / Float(from))  // mixed down by the mean
                } else {
                    held.append(channel < from ? samples[base + channel] : 0)
                }
            }
        }
    }

    /// Moves what is held through the resampler (or as it is) into `made`; `ending` flushes.
    private func process(ending: Bool) {
        guard let resampler else {
            made.append(contentsOf: held)
            held.removeAll(keepingCapacity: true)
            return
        }
        let channels = output.channels
        var room = [Float](repeating: 0, count: (Int(Double(held.count / channels) * resampler.ratio) + 256) * channels)
        var offset = 0
        while true {
            let (used, produced) = held.withUnsafeBufferPointer { all in
                room.withUnsafeMutableBufferPointer { out in
                    resampler.process(UnsafeBufferPointer(rebasing: all[offset...]), into: out, ending: ending)
                }
            }
            offset += used * channels
            made.append(contentsOf: room[..<(produced * channels)])
            if produced == 0, used == 0 { break }
            if offset >= held.count, !ending { break }
        }
        held.removeFirst(min(offset, held.count))
    }

    /// The input procedure's answer: data, the end (0 packets), or its error.
    enum Pulled {
        case data(UnsafeRawPointer, frames: Int)
        case end
        case failed(OSStatus)
    }

    /// Fills `frames` output frames at `bytes`, asking `pull` for input frames as needed:
    /// (frames made, the input procedure's error or 0).
    func fill(frames wanted: Int, into bytes: UnsafeMutableRawPointer, pull: (Int) -> Pulled) -> (made: Int, status: OSStatus) {
        let channels = output.channels
        var status: OSStatus = 0
        var asks = 0
        while made.count / channels < wanted, !ended, status == 0, asks < 10_000 {
            asks += 1
            let missing = wanted - made.count / channels
            let ratio = resampler?.ratio ?? 1
            switch pull(max(1, Int((Double(missing) / ratio).rounded(.up)))) {
            case .data(let pointer, let frames) where frames > 0:
                take(pointer, frames: frames)
                process(ending: false)
            case .data, .end:
                ended = true
                process(ending: true)
            case .failed(let error):
                status = error
            }
        }
        let given = min(wanted, made.count / channels)
        output.encode(made[..<(given * channels)], into: bytes)
        made.removeFirst(given * channels)
        return (given, status)
    }

    /// Converts frames at one rate (ConvertBuffer, ConvertComplexBuffer): 'op??' where the rate changes.
    func convert(_ source: UnsafeRawPointer, frames: Int, into destination: UnsafeMutableRawPointer) throws(CStatus) {
        guard resampler == nil else { throw CStatus(Int(kAudioConverterErr_OperationNotSupported)) }
        take(source, frames: frames)
        process(ending: false)
        let count = frames * output.channels
        output.encode(made[..<count], into: destination)
        made.removeFirst(count)
    }
}
