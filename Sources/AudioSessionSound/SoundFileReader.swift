import CSndFile

#if canImport(Glibc)
import Glibc
#endif

/// A sound file read as it plays (SO2): opened once, decoded a piece at a time, so an hour-long
/// file costs what a minute-long one does — the one sound-file seam. libsndfile reads what it
/// can (WAV, AIFF, CAF of linear PCM or ALAC, FLAC, Ogg, MP3); what it cannot — AAC in `.m4a`,
/// `.mp4` or ADTS, Apple Lossless in `.m4a`, IMA4 in CAF (SO8) — FFmpeg's decoders read
/// (`CodecFileReader`). Not thread-safe: its owner serialises the calls.
public final class SoundFileReader: @unchecked Sendable {
    public let path: String
    public let channels: Int
    public let sampleRate: Int
    /// Frames, as the file's header says (a file truncated later may hold fewer).
    public let frames: Int
    /// libsndfile's major format (`SF_FORMAT_WAV`, `SF_FORMAT_FLAC` …) and subtype (`SF_FORMAT_PCM_16` …);
    /// 0 for a file FFmpeg decodes (`codec` says which).
    public let format: Int32
    /// SO8: the codec FFmpeg decodes the file with (`aac`, `alac`, `mp3` …); nil for libsndfile's.
    public let codec: String?
    private var file: OpaquePointer?
    private var decoded: CodecFileReader?
    /// The next frame `read` returns.
    public private(set) var position = 0

    /// Opens the file and reads its header.
    /// - Throws: naming the file and libsndfile's reason (no such file, not a sound file, a format
    ///   it cannot read), or a file without channels or sample rate.
    public init(path: String) throws(SoundFileError) {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            let refused = String(cString: sf_strerror(nil))
            do throws(SoundFileError) {
                let decoded = try CodecFileReader(path: path)
                (self.path, self.decoded, codec, format) = (path, decoded, decoded.codec, 0)
                (channels, sampleRate, frames) = (decoded.channels, decoded.sampleRate, decoded.frames)
                return
            } catch {
                throw SoundFileError(description: "cannot read \(path): \(refused); \(error.description)")
            }
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw SoundFileError(description: "\(path) has \(info.channels) channels at \(info.samplerate) Hz")
        }
        self.path = path
        self.file = file
        codec = nil
        channels = Int(info.channels)
        sampleRate = Int(info.samplerate)
        frames = Int(max(0, info.frames))
        format = info.format
    }

    deinit { close() }

    /// Seconds, as the header says.
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// Up to `count` frames from the position on, interleaved; fewer at the end of the file (or
    /// where a file truncated since it was opened ends), none after it.
    public func read(_ count: Int) -> [Float] {
        if let decoded {
            defer { position = decoded.position }
            return decoded.read(count)
        }
        guard let file, count > 0 else { return [] }
        var samples = [Float](repeating: 0, count: count * channels)
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(count)) }
        let got = max(0, Int(read))
        if got < count { samples.removeLast((count - got) * channels) }
        position += got
        return samples
    }

    /// Moves to a frame (clamped to the file).
    public func seek(to frame: Int) {
        if let decoded {
            decoded.seek(to: frame)
            position = decoded.position
            return
        }
        guard let file else { return }
        let target = min(max(0, frame), frames)
        let reached = sf_seek(file, sf_count_t(target), SEEK_SET)
        position = reached >= 0 ? Int(reached) : position
    }

    public func close() {
        if let file { sf_close(file) }
        file = nil
        decoded?.close()
        decoded = nil
    }
}
