import CSndFile

/// Interleaved 32-bit float samples and their format.
public struct SampleBuffer: Sendable, Equatable {
    public var samples: [Float]
    public var channels: Int
    public var sampleRate: Int

    public init(samples: [Float], channels: Int, sampleRate: Int) {
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Frames (one sample per channel).
    public var frames: Int { channels > 0 ? samples.count / channels : 0 }
    /// Seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// A sound file could not be read or written; the message names the file and libsndfile's reason.
public struct SoundFileError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// Sound files through libsndfile: whatever it reads (WAV, FLAC, Ogg Vorbis, AIFF …) and
/// whatever it writes (WAV, AIFF and CAF readable while they grow; FLAC, Ogg Vorbis and Opus).
public enum SoundFile {
    public enum Format: Sendable, Equatable {
        /// WAV, 32-bit float: what the simulated device renders.
        case wavFloat
        /// WAV, 16-bit PCM: what a recorder writes.
        case wav16
        case flac
        case oggVorbis
        /// Any format libsndfile writes: its major format | subtype (SO3's recorder settings).
        case libsndfile(Int32)
        /// SO8: AAC or Apple Lossless, through FFmpeg.
        case encoded(EncodedFormat)

        /// libsndfile's code (0 for an encoded format: FFmpeg writes it).
        public var code: Int32 {
            switch self {
            case .libsndfile(let code): code
            case .encoded: 0
            case .wavFloat: Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_FLOAT)
            case .wav16: Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)
            case .oggVorbis: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
            }
        }
    }

    /// Reads a whole file as float samples.
    public static func read(_ path: String) throws(SoundFileError) -> SampleBuffer {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw SoundFileError(description: "cannot read \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        guard info.channels > 0, info.samplerate > 0 else {
            throw SoundFileError(description: "\(path) has \(info.channels) channels at \(info.samplerate) Hz")
        }
        var samples = [Float](repeating: 0, count: Int(info.frames) * Int(info.channels))
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, info.frames) }
        samples.removeLast(samples.count - Int(read) * Int(info.channels))
        return SampleBuffer(samples: samples, channels: Int(info.channels), sampleRate: Int(info.samplerate))
    }

    /// Writes a whole buffer.
    public static func write(_ buffer: SampleBuffer, to path: String, format: Format = .wavFloat) throws(SoundFileError) {
        let writer = try SoundFileWriter(path: path, channels: buffer.channels, sampleRate: buffer.sampleRate, format: format)
        try writer.append(buffer.samples)
        writer.close()
    }
}

/// A sound file written piece by piece (a recording, a rendered output). Not thread-safe: its
/// owner serialises the calls.
public final class SoundFileWriter: @unchecked Sendable {
    public let path: String
    public let channels: Int
    public let sampleRate: Int
    private var file: OpaquePointer?
    private var encoded: CodecFileWriter?

    /// Creates (or truncates) the file.
    public init(path: String, channels: Int, sampleRate: Int, format: SoundFile.Format = .wavFloat) throws(SoundFileError) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        if case .encoded(let settings) = format {
            encoded = try CodecFileWriter(path: path, channels: channels, sampleRate: sampleRate, format: settings)
            return
        }
        var info = SF_INFO()
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        info.format = format.code
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw SoundFileError(description: "cannot write \(path): \(String(cString: sf_strerror(nil)))")
        }
        let major = format.code & Int32(SF_FORMAT_TYPEMASK)
        if [SF_FORMAT_WAV, SF_FORMAT_AIFF, SF_FORMAT_CAF].map({ Int32($0) }).contains(major) {
            sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))  // readable while it grows
        }
        self.file = file
    }

    deinit { close() }

    /// Appends interleaved samples (a whole number of frames).
    public func append(_ samples: [Float]) throws(SoundFileError) {
        if let encoded { return try encoded.append(samples) }
        guard let file, !samples.isEmpty else { return }
        let frames = sf_count_t(samples.count / channels)
        let written = samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, frames) }
        guard written == frames else {
            throw SoundFileError(description: "cannot write \(path): \(String(cString: sf_strerror(file)))")
        }
    }

    /// Finishes the file (its header); later appends do nothing.
    public func close() {
        if let file { sf_close(file) }
        file = nil
        encoded?.close()
        encoded = nil
    }
}
