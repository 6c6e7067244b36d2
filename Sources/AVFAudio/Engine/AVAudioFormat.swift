import Foundation

/// The sample formats an `AVAudioFormat` names (SPEC EN1).
public enum AVAudioCommonFormat: UInt, Sendable {
    case otherFormat = 0
    case pcmFormatFloat32 = 1
    case pcmFormatFloat64 = 2
    case pcmFormatInt16 = 3
    case pcmFormatInt32 = 4

    var bytesPerSample: Int {
        switch self {
        case .pcmFormatFloat32, .pcmFormatInt32: 4
        case .pcmFormatFloat64: 8
        case .pcmFormatInt16: 2
        case .otherFormat: 0
        }
    }
}

/// Apple's `AVAudioFormat` for linear PCM (SPEC EN1): a sample rate of 8–192 kHz, 1–8 channels
/// (more than two only with a channel layout, as on iOS: the standard and common initializers give
/// nil above two), a common format and whether the channels are interleaved. Anything else gives nil.
/// The *standard* format is 32-bit float, deinterleaved — what the engine's nodes process.
open class AVAudioFormat: NSObject, @unchecked Sendable {
    public let sampleRate: Double
    public let channelCount: AVAudioChannelCount
    public let commonFormat: AVAudioCommonFormat
    public let isInterleaved: Bool

    /// The standard format (32-bit float, deinterleaved) at a rate with 1 or 2 channels.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    public init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard format != .otherFormat, Self.valid(sampleRate: sampleRate, channels: channels, maximumChannels: 2) else {
            return nil
        }
        self.sampleRate = sampleRate
        channelCount = channels
        commonFormat = format
        isInterleaved = interleaved
        super.init()
    }

    /// Ours: deinterleaved 32-bit float at a file's rate and channels (1–8, clamped), for
    /// `AVAudioPlayer.format` and `AVAudioRecorder.format`.
    convenience init(processingRate rate: Double, channels: Int) {
        self.init(
            settings: [
                AVSampleRateKey: NSNumber(value: min(192_000, max(8_000, rate))),
                AVNumberOfChannelsKey: NSNumber(value: min(8, max(1, channels))),
                AVLinearPCMIsNonInterleaved: NSNumber(value: true),
            ])!
    }

    /// EN5: the input node's format where there is no input: 0 Hz, 0 channels (as iOS reports it).
    init(noInput: ()) {
        (sampleRate, channelCount, commonFormat, isInterleaved) = (0, 0, .pcmFormatFloat32, false)
        super.init()
    }

    /// From a settings dictionary (`AVFormatIDKey` linear PCM, `AVSampleRateKey`,
    /// `AVNumberOfChannelsKey` up to 8, `AVLinearPCMBitDepthKey`, `AVLinearPCMIsFloatKey`,
    /// `AVLinearPCMIsNonInterleaved`); nil for anything else.
    public init?(settings: [String: Any]) {
        let formatID = (settings[AVFormatIDKey] as? NSNumber)?.uint32Value ?? (settings[AVFormatIDKey] as? UInt32)
        guard formatID == nil || formatID == kAudioFormatLinearPCM else { return nil }
        guard let rate = Self.number(settings[AVSampleRateKey])?.doubleValue,
            let channels = Self.number(settings[AVNumberOfChannelsKey])?.uint32Value,
            Self.valid(sampleRate: rate, channels: channels, maximumChannels: 8)
        else { return nil }
        let bits = Self.number(settings[AVLinearPCMBitDepthKey])?.intValue ?? 32
        let isFloat = Self.number(settings[AVLinearPCMIsFloatKey])?.boolValue ?? (bits == 32 || bits == 64)
        switch (isFloat, bits) {
        case (true, 32): commonFormat = .pcmFormatFloat32
        case (true, 64): commonFormat = .pcmFormatFloat64
        case (false, 16): commonFormat = .pcmFormatInt16
        case (false, 32): commonFormat = .pcmFormatInt32
        default: return nil
        }
        sampleRate = rate
        channelCount = channels
        isInterleaved = !(Self.number(settings[AVLinearPCMIsNonInterleaved])?.boolValue ?? false)
        super.init()
    }

    private static func number(_ value: Any?) -> NSNumber? {
        switch value {
        case let number as NSNumber: number
        case let value as Double: NSNumber(value: value)
        case let value as Int: NSNumber(value: value)
        case let value as UInt32: NSNumber(value: value)
        case let value as Bool: NSNumber(value: value)
        default: nil
        }
    }

    static func valid(sampleRate: Double, channels: AVAudioChannelCount, maximumChannels: AVAudioChannelCount) -> Bool {
        sampleRate >= 8_000 && sampleRate <= 192_000 && channels >= 1 && channels <= maximumChannels
    }

    /// 32-bit float, deinterleaved.
    public var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// The settings dictionary that makes this format (`init(settings:)`).
    public var settings: [String: Any] {
        [
            AVFormatIDKey: NSNumber(value: kAudioFormatLinearPCM), AVSampleRateKey: NSNumber(value: sampleRate),
            AVNumberOfChannelsKey: NSNumber(value: channelCount),
            AVLinearPCMBitDepthKey: NSNumber(value: commonFormat.bytesPerSample * 8),
            AVLinearPCMIsFloatKey: NSNumber(value: commonFormat == .pcmFormatFloat32 || commonFormat == .pcmFormatFloat64),
            AVLinearPCMIsNonInterleaved: NSNumber(value: !isInterleaved), AVLinearPCMIsBigEndianKey: NSNumber(value: false),
        ]
    }

    override open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        return sampleRate == other.sampleRate && channelCount == other.channelCount && commonFormat == other.commonFormat
            && isInterleaved == other.isInterleaved
    }

    override open var hash: Int { Int(sampleRate) &* 31 &+ Int(channelCount) &* 7 &+ Int(commonFormat.rawValue) }

    override open var description: String {
        let kind =
            switch commonFormat {
            case .pcmFormatFloat32: "Float32"
            case .pcmFormatFloat64: "Float64"
            case .pcmFormatInt16: "Int16"
            case .pcmFormatInt32: "Int32"
            case .otherFormat: "other"
            }
        return
            "<AVAudioFormat \(channelCount) ch, \(Int(sampleRate)) Hz, \(kind), \(isInterleaved ? "interleaved" : "deinterleaved")>"
    }
}

public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
