import Foundation

// SO2, SO3: the settings dictionary's keys and the format ids, as iOS code names them
// (CoreAudioTypes and AVFAudio's AVAudioSettings.h), for AVAudioPlayer's `settings` and
// AVAudioRecorder's `init(url:settings:)`.

/// A four-character code naming an audio data format (`'lpcm'`, `'flac'` …).
public typealias AudioFormatID = UInt32

public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D  // 'lpcm'
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163  // 'alac'
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320  // 'aac '
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033  // '.mp3'
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163  // 'flac'
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573  // 'opus'

public let AVFormatIDKey = "AVFormatIDKey"
public let AVSampleRateKey = "AVSampleRateKey"
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
public let AVEncoderBitRateStrategyKey = "AVEncoderBitRateStrategyKey"
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"
public let AVSampleRateConverterAlgorithmKey = "AVSampleRateConverterAlgorithmKey"
/// `AVEncoderBitRateStrategyKey`'s values (SO8): FFmpeg's AAC encoder keeps a constant bit rate
/// for `_Constant` and an average one for the other three.
public let AVAudioBitRateStrategy_Constant = "AVAudioBitRateStrategy_Constant"
public let AVAudioBitRateStrategy_LongTermAverage = "AVAudioBitRateStrategy_LongTermAverage"
public let AVAudioBitRateStrategy_VariableConstrained = "AVAudioBitRateStrategy_VariableConstrained"
public let AVAudioBitRateStrategy_Variable = "AVAudioBitRateStrategy_Variable"

/// `AVEncoderAudioQualityKey`'s values.
public enum AVAudioQuality: Int, Sendable {
    case min = 0
    case low = 0x20
    case medium = 0x40
    case high = 0x60
    case max = 0x7F
}

/// OSStatus codes of Audio File Services that AVAudioPlayer and AVAudioRecorder throw in
/// `NSOSStatusErrorDomain`, as on iOS.
enum AudioFileStatus {
    /// 'wht?': a file that cannot be opened or written (missing, a directory that does not exist).
    static let unspecified = 0x7768_743F
    /// 'typ?': not a file type that can be read (text named .wav, an empty file).
    static let unsupportedFileType = 0x7479_703F
    /// 'fmt?': a data format that cannot be written (an unknown format id, 0 channels, rate 0).
    static let unsupportedDataFormat = 0x666D_743F

    /// The NSError iOS code reads: the domain, the code, and what and why in the description.
    static func error(_ code: Int, _ description: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: description])
    }
}
