import AudioSession
import AudioSessionSound
import CSndFile
import Foundation

/// Apple's `AVAudioFile` (SPEC EN2): a sound file read or written a buffer at a time, through the
/// one sound-file seam (libsndfile: WAV, AIFF, CAF, FLAC, Ogg Vorbis/Opus, MP3 where it offers it).
/// Reading decodes as it goes (an hour-long file costs what a minute-long one does); a file holding
/// less than its header says reads what it holds. Errors are NSErrors in `NSOSStatusErrorDomain`
/// naming the file and why: `'wht?'` a missing file or a URL that is no file, `'typ?'` no sound
/// file, `'fmt?'` settings it cannot write, -50 a buffer of another format than the processing one.
open class AVAudioFile: NSObject, @unchecked Sendable {
    public let url: URL
    /// The file's own format (its rate, channels and samples as stored).
    public let fileFormat: AVAudioFormat
    /// The format `read(into:)` fills and `write(from:)` takes: standard float unless asked.
    public let processingFormat: AVAudioFormat
    private var reader: SoundFileReader?
    private var writer: SoundFileWriter?
    private var written: AVAudioFramePosition = 0

    /// Opens a file for reading, processed as the standard format (deinterleaved float).
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard fileURL.isFileURL else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioFile reads files only: \(fileURL) is no file URL")
        }
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioFile: no file \(fileURL.path)")
        }
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: fileURL.path) } catch {
            throw AudioFileStatus.error(AudioFileStatus.unsupportedFileType, "AVAudioFile: \(error.description)")
        }
        guard
            let processing = Self.format(
                format, rate: Double(reader.sampleRate), channels: reader.channels, interleaved: interleaved)
        else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat,
                "AVAudioFile: \(fileURL.path) is \(reader.sampleRate) Hz with \(reader.channels) channels, which no PCM format here holds"
            )
        }
        url = fileURL
        self.reader = reader
        processingFormat = processing
        fileFormat =
            Self.format(
                Self.commonFormat(ofLibsndfile: reader.format), rate: processing.sampleRate, channels: reader.channels,
                interleaved: true)
            ?? processing
        super.init()
    }

    /// Creates (or replaces) a file to write, in what `settings` say (as AVAudioRecorder's: linear
    /// PCM into .wav, .aif, .aiff or .caf by the extension, FLAC, Opus), taking buffers of the
    /// standard format at the file's rate and channels.
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    public init(
        forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool
    ) throws {
        guard fileURL.isFileURL else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioFile writes files only: \(fileURL) is no file URL")
        }
        let chosen = try AVAudioRecorder.format(
            settings, extension: fileURL.pathExtension.lowercased(), session: AVAudioSession.sharedInstance().session,
            who: "AVAudioFile")
        guard
            let processing = Self.format(
                format, rate: Double(chosen.sampleRate), channels: chosen.channels, interleaved: interleaved)
        else {
            throw AudioFileStatus.error(AudioFileStatus.unsupportedDataFormat, "AVAudioFile: no PCM format for these settings")
        }
        do {
            writer = try SoundFileWriter(
                path: fileURL.path, channels: chosen.channels, sampleRate: chosen.sampleRate, format: chosen.file)
        } catch {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioFile: \(error.description)")
        }
        url = fileURL
        processingFormat = processing
        fileFormat =
            Self.format(
                Self.commonFormat(ofLibsndfile: chosen.file.code), rate: processing.sampleRate, channels: chosen.channels,
                interleaved: true)
            ?? processing
        super.init()
    }

    deinit { close() }

    /// Frames in the file: as its header says when reading, as written so far when writing.
    open var length: AVAudioFramePosition { reader.map { AVAudioFramePosition($0.frames) } ?? written }

    /// The next frame read or written; set it to move (reading).
    open var framePosition: AVAudioFramePosition {
        get { reader.map { AVAudioFramePosition($0.position) } ?? written }
        set { reader?.seek(to: Int(newValue)) }
    }

    /// Reads as many frames as the buffer holds, from `framePosition` on.
    open func read(into buffer: AVAudioPCMBuffer) throws { try read(into: buffer, frameCount: buffer.frameCapacity) }

    /// Reads up to `frames` frames into the buffer (fewer at the end of the file; none after it:
    /// `frameLength` 0). - Throws: -50 for a buffer of another format than `processingFormat`.
    open func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        guard let reader else { throw Self.paramError("AVAudioFile: \(url.path) is open for writing, not reading") }
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.paramError(
                "AVAudioFile.read: the buffer is \(buffer.format), the file's processing format \(processingFormat)")
        }
        let count = Int(min(frames, buffer.frameCapacity))
        let samples = reader.read(count)
        let channels = reader.channels
        let got = samples.count / channels
        for frame in 0..<got {
            for channel in 0..<channels { buffer.setSample(samples[frame * channels + channel], channel: channel, frame: frame) }
        }
        buffer.frameLength = AVAudioFrameCount(got)
    }

    /// Appends the buffer's frames. - Throws: -50 for a buffer of another format than
    /// `processingFormat`; `'wht?'` when the file cannot be written on.
    open func write(from buffer: AVAudioPCMBuffer) throws {
        guard let writer else { throw Self.paramError("AVAudioFile: \(url.path) is open for reading, not writing") }
        guard buffer.format.sampleRate == processingFormat.sampleRate, buffer.format.channelCount == processingFormat.channelCount
        else {
            throw Self.paramError(
                "AVAudioFile.write: the buffer is \(buffer.format), the file's processing format \(processingFormat)")
        }
        let channels = Int(processingFormat.channelCount)
        let frames = Int(buffer.frameLength)
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels { samples[frame * channels + channel] = buffer.sample(channel: channel, frame: frame) }
        }
        do { try writer.append(samples) } catch {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioFile: \(error.description)")
        }
        written += AVAudioFramePosition(frames)
    }

    /// Finishes the file (writing) or lets it go (reading); later reads and writes throw.
    open func close() {
        writer?.close()
        reader?.close()
    }

    open var isOpen: Bool { writer != nil || reader != nil }

    private static func paramError(_ description: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: -50, userInfo: [NSLocalizedDescriptionKey: description])
    }

    /// A PCM format of up to 8 channels (the settings form allows more than two).
    static func format(_ common: AVAudioCommonFormat, rate: Double, channels: Int, interleaved: Bool) -> AVAudioFormat? {
        let bits = common == .pcmFormatInt16 ? 16 : common == .pcmFormatFloat64 ? 64 : 32
        return AVAudioFormat(settings: [
            AVSampleRateKey: NSNumber(value: rate), AVNumberOfChannelsKey: NSNumber(value: channels),
            AVLinearPCMBitDepthKey: NSNumber(value: bits),
            AVLinearPCMIsFloatKey: NSNumber(value: common == .pcmFormatFloat32 || common == .pcmFormatFloat64),
            AVLinearPCMIsNonInterleaved: NSNumber(value: !interleaved),
        ])
    }

    /// How libsndfile stores the samples, as a common format (compressed ones decode to float).
    static func commonFormat(ofLibsndfile code: Int32) -> AVAudioCommonFormat {
        switch code & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_16): .pcmFormatInt16
        case Int32(SF_FORMAT_PCM_32): .pcmFormatInt32
        case Int32(SF_FORMAT_DOUBLE): .pcmFormatFloat64
        default: .pcmFormatFloat32
        }
    }
}
