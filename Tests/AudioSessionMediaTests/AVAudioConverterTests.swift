import AVFAudio
import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// SPEC EN2: AVAudioConverter — rate (a real resampler, measured), channels, sample format — and the
/// speech recognizers' pattern: the microphone's tap converted to 16 kHz mono Int16.
@Suite("AVAudioConverter (EN2)", .serialized)
struct AVAudioConverterTests {
    /// Converts a whole buffer with the input-block form, feeding it in pieces of `piece` frames.
    static func convertAll(_ input: AVAudioPCMBuffer, with converter: AVAudioConverter, piece: Int = 1_000) -> [AVAudioPCMBuffer]
    {
        var offset = 0
        var outputs: [AVAudioPCMBuffer] = []
        while true {
            let out = AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 2_048)!
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { _, status in
                guard offset < Int(input.frameLength) else {
                    status.pointee = .endOfStream
                    return nil
                }
                let count = min(piece, Int(input.frameLength) - offset)
                let part = AVAudioPCMBuffer(pcmFormat: input.format, frameCapacity: AVAudioFrameCount(count))!
                part.frameLength = AVAudioFrameCount(count)
                for channel in 0..<Int(input.format.channelCount) {
                    for frame in 0..<count {
                        part.floatChannelData![channel][frame] = input.floatChannelData![channel][offset + frame]
                    }
                }
                offset += count
                status.pointee = .haveData
                return part
            }
            if out.frameLength > 0 { outputs.append(out) }
            if status == .endOfStream || status == .error { break }
        }
        return outputs
    }

    /// The residual after the best fit of a sine at `frequency` (dB below the signal).
    static func residual(_ samples: [Float], frequency: Double, rate: Double) -> Double {
        let n = Double(samples.count)
        var (s, c) = (0.0, 0.0)
        for (index, value) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / rate
            s += Double(value) * sin(phase)
            c += Double(value) * cos(phase)
        }
        let (a, b) = (2 * s / n, 2 * c / n)
        var (signal, error) = (0.0, 0.0)
        for (index, value) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / rate
            let fit = a * sin(phase) + b * cos(phase)
            signal += fit * fit
            error += (Double(value) - fit) * (Double(value) - fit)
        }
        return 10 * log10(error / signal)
    }

    @Test(
        "A 15 kHz tone from 48 to 44.1 kHz: the same tone, residual under −60 dB (linear interpolation leaves −13 dB); every input frame comes out once (length × 0.91875)"
    )
    func resamplesForReal() throws {
        let input = AVAudioEngineTests.sine(15_000, amplitude: 0.5, seconds: 1)
        let converter = AVAudioConverter(
            from: input.format, to: AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!)!
        let outputs = Self.convertAll(input, with: converter)
        let samples = outputs.flatMap { UnsafeBufferPointer(start: $0.floatChannelData![0], count: Int($0.frameLength)) }
        #expect(abs(samples.count - 44_100) <= 64, "\(samples.count) frames")
        let steady = Array(samples[4_000..<40_000])
        let residual = Self.residual(steady, frequency: 15_000, rate: 44_100)
        #expect(residual < -60, "residual \(residual) dB")
    }

    @Test(
        "EN2: the speech recognizers' pattern — the microphone's tap (48 kHz mono float) converted to 16 kHz mono Int16 holds the same tone at its level"
    )
    func speechPattern() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let session = AVAudioSession(wrapping: fixture.session("engine.recognizer"))
        try session.setCategory(.record)
        let engine = AVAudioEngine(session: session, endpoint: fixture.endpoint)
        let input = engine.inputNode.outputFormat(forBus: 0)
        let speech = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false)!
        let converter = AVAudioConverter(from: input, to: speech)!
        let converted = Mutex<[Int16]>([])
        engine.inputNode.installTap(onBus: 0, bufferSize: 4_800, format: input) { buffer, _ in
            let out = AVAudioPCMBuffer(pcmFormat: speech, frameCapacity: 1_600)!
            var given = false
            var error: NSError?
            _ = converter.convert(to: out, error: &error) { _, status in
                if given {
                    status.pointee = .noDataNow
                    return nil
                }
                given = true
                status.pointee = .haveData
                return buffer
            }
            converted.withLock { $0 += UnsafeBufferPointer(start: out.int16ChannelData![0], count: Int(out.frameLength)) }
        }
        try engine.start()
        #expect(eventually { converted.withLock { $0.count } >= 16_000 })
        engine.stop()
        let samples = converted.withLock { $0 }.dropFirst(1_600).map { Float($0) / 32_768 }
        #expect(abs(AVAudioEngineInputTests.frequency(Array(samples), rate: 16_000) - 440) < 2)
        let peak = samples.map(abs).max() ?? 0
        #expect(abs(peak - 0.25) < 0.01, "peak \(peak)")
    }

    @Test(
        "Same-rate conversions: stereo float to mono Int16 averages, mono to stereo duplicates, channelMap picks; a rate change there is -50; noDataNow gives inputRanDry, the end endOfStream"
    )
    func formatsAndStatuses() throws {
        let stereo = AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 0.01, channels: 2)
        for frame in 0..<Int(stereo.frameLength) { stereo.floatChannelData![1][frame] = 0 }  // right silent
        let mono16 = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 1, interleaved: true)!
        let down = AVAudioConverter(from: stereo.format, to: mono16)!
        let out = AVAudioPCMBuffer(pcmFormat: mono16, frameCapacity: 480)!
        try down.convert(to: out, from: stereo)
        #expect(out.frameLength == 480)
        let expected = Int16((stereo.floatChannelData![0][10] / 2 * 32_768).rounded())
        #expect(
            abs(Int(out.int16ChannelData![0][10]) - Int(expected)) <= 1,
            "averaged: \(out.int16ChannelData![0][10]) vs \(expected)")
        down.channelMap = [0]
        try down.convert(to: out, from: stereo)
        #expect(abs(Int(out.int16ChannelData![0][10]) - Int(expected) * 2) <= 2, "left only")

        let mono = AVAudioEngineTests.sine(440, amplitude: 0.5, seconds: 0.01)
        let up = AVAudioConverter(from: mono.format, to: stereo.format)!
        let wide = AVAudioPCMBuffer(pcmFormat: stereo.format, frameCapacity: 480)!
        try up.convert(to: wide, from: mono)
        #expect(
            wide.floatChannelData![0][10] == mono.floatChannelData![0][10]
                && wide.floatChannelData![1][10] == mono.floatChannelData![0][10])

        let rate = AVAudioConverter(from: mono.format, to: AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!)!
        let small = AVAudioPCMBuffer(pcmFormat: rate.outputFormat, frameCapacity: 160)!
        #expect(throws: (any Error).self) { try rate.convert(to: small, from: mono) }
        var error: NSError?
        var status = rate.convert(to: small, error: &error) { _, status in
            status.pointee = .noDataNow
            return nil
        }
        #expect(status == .inputRanDry && small.frameLength == 0)
        status = rate.convert(to: small, error: &error) { _, status in
            status.pointee = .endOfStream
            return nil
        }
        #expect(status == .endOfStream)
        status = rate.convert(to: wide, error: &error) { _, status in
            status.pointee = .endOfStream
            return nil
        }
        #expect(status == .error && error?.localizedDescription.contains("output buffer") == true, "\(String(describing: error))")
    }
}
