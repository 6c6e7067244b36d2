import AudioSessionMedia
import Foundation

extension AVAudioRecorder {
    /// SO8: the AAC and Apple Lossless settings, checked before anything is recorded — the
    /// container by the extension, the bit rate (`AVEncoderBitRateKey`, else
    /// `AVEncoderBitRatePerChannelKey` × channels, else `AVEncoderAudioQualityKey`'s), the strategy.
    /// Apple Lossless has no bit rate: the keys are accepted and have no effect.
    static func encoded(
        _ settings: [String: Any], id: AudioFormatID, extension: String, rate: Double, channels: Int, who: String
    ) throws -> EncodedFormat {
        func number(_ key: String) -> NSNumber? { settings[key] as? NSNumber }
        if id == kAudioFormatAppleLossless {
            let containers = ["m4a": "ipod", "caf": "caf"]
            guard let container = containers[`extension`] else {
                throw AudioFileStatus.error(
                    AudioFileStatus.unsupportedFileType, "\(who): Apple Lossless is written to .m4a or .caf, not .\(`extension`)")
            }
            return EncodedFormat(codec: .alac, container: container)
        }
        let containers = ["m4a": "ipod", "mp4": "mp4", "m4b": "ipod", "aac": "adts"]
        guard let container = containers[`extension`] else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedFileType, "\(who): AAC is written to .m4a, .mp4 or .aac, not .\(`extension`)")
        }
        if !aacSampleRates.contains(Int(rate)) {  // the rate asked, or the session's
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat,
                "\(who): AAC is encoded at \(aacSampleRates.map(String.init).joined(separator: ", ")) Hz, not AVSampleRateKey \(rate)"
            )
        }
        let perChannel: Int
        let named: String
        if let total = number(AVEncoderBitRateKey)?.intValue {
            (perChannel, named) = (total / channels, "AVEncoderBitRateKey \(total)")
        } else if let each = number(AVEncoderBitRatePerChannelKey)?.intValue {
            (perChannel, named) = (each, "AVEncoderBitRatePerChannelKey \(each)")
        } else {
            let quality = number(AVEncoderAudioQualityKey)?.intValue ?? AVAudioQuality.high.rawValue
            // min, low, medium, high, max: 32, 48, 64, 96, 128 kbit/s per channel.
            let steps = [
                (AVAudioQuality.low.rawValue, 32_000), (AVAudioQuality.medium.rawValue, 48_000),
                (AVAudioQuality.high.rawValue, 64_000), (AVAudioQuality.max.rawValue, 96_000),
            ]
            perChannel = steps.first { quality < $0.0 }?.1 ?? 128_000
            named = "AVEncoderAudioQualityKey \(quality)"
        }
        guard (8_000...320_000).contains(perChannel) else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat,
                "\(who): \(named) is \(perChannel) bit/s per channel; AAC is encoded at 8000…320000 per channel")
        }
        let strategy: EncodedFormat.Strategy
        switch settings[AVEncoderBitRateStrategyKey] as? String {
        case AVAudioBitRateStrategy_Constant: strategy = .constant
        case nil, AVAudioBitRateStrategy_LongTermAverage, AVAudioBitRateStrategy_VariableConstrained,
            AVAudioBitRateStrategy_Variable:
            strategy = .average
        case let other?:
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat, "\(who): AVEncoderBitRateStrategyKey \(other) is no strategy")
        }
        return EncodedFormat(codec: .aac, container: container, bitRate: perChannel * channels, strategy: strategy)
    }

    /// The rates AAC is encoded at.
    static let aacSampleRates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000]
}
