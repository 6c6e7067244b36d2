import CFFmpeg

/// A compressed sound file libsndfile cannot read — AAC (`.m4a`, `.mp4`, ADTS `.aac`), Apple
/// Lossless, MP3, IMA4 in CAF (SPEC SO8) — decoded as it plays through FFmpeg's libavformat and
/// libavcodec, converted to interleaved float at the file's own rate and channels by
/// libswresample. One packet is decoded at a time into buffers made once, so an hour-long file
/// costs what a minute-long one does (SO2). Not thread-safe: its owner serialises the calls
/// (`SoundFileReader` is the one door to it).
final class CodecFileReader {
    let channels: Int
    let sampleRate: Int
    /// Frames, from the container's duration (an estimate for a file without an index: MP3
    /// without a Xing header, ADTS).
    let frames: Int
    /// The codec's short name: `aac`, `alac`, `mp3`, `adpcm_ima_qt` …
    let codec: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let stream: Int32
    private let timeBase: AVRational
    /// Decoded frames not yet read, interleaved, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var ended = false
    /// Frames still to drop after a seek (the decoder resumes at the packet before the target).
    private var skip = 0
    /// The next frame `read` returns.
    private(set) var position = 0

    /// Opens the file, finds its first audio stream and its decoder.
    /// - Throws: what FFmpeg says, naming the file: no such file, not a container it knows, no
    ///   audio in it (a video-only `.mp4`), a codec it has no decoder for.
    init(path: String) throws(SoundFileError) {
        Self.quietLibraries()
        var format: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_open_input(&format, path, nil, nil)
        guard status == 0, let format else { throw Self.error(path, "cannot open", status) }
        var made = false
        defer { if !made { var owned: UnsafeMutablePointer<AVFormatContext>? = format; avformat_close_input(&owned) } }
        status = avformat_find_stream_info(format, nil)
        guard status >= 0 else { throw Self.error(path, "cannot read the streams of", status) }
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        guard index >= 0, let codec else {
            throw SoundFileError(description: "\(path) holds no sound FFmpeg can decode (\(Self.reason(index)))")
        }
        let stream = format.pointee.streams[Int(index)]!
        guard let decoder = avcodec_alloc_context3(codec) else {
            throw SoundFileError(description: "out of memory opening \(path)")
        }
        var context: UnsafeMutablePointer<AVCodecContext>? = decoder
        status = avcodec_parameters_to_context(decoder, stream.pointee.codecpar)
        if status >= 0 { status = avcodec_open2(decoder, codec, nil) }
        guard status >= 0, decoder.pointee.sample_rate > 0, decoder.pointee.ch_layout.nb_channels > 0 else {
            avcodec_free_context(&context)
            throw Self.error(path, "cannot decode the sound of", min(status, -1))
        }
        var resampler: OpaquePointer?
        var layout = decoder.pointee.ch_layout
        status = swr_alloc_set_opts2(
            &resampler, &layout, AV_SAMPLE_FMT_FLT, decoder.pointee.sample_rate, &decoder.pointee.ch_layout,
            decoder.pointee.sample_fmt, decoder.pointee.sample_rate, 0, nil)
        if status >= 0 { status = swr_init(resampler) }
        guard status >= 0 else {
            swr_free(&resampler)
            avcodec_free_context(&context)
            throw Self.error(path, "cannot convert the samples of", status)
        }
        self.format = format
        self.decoder = decoder
        self.resampler = resampler
        self.stream = index
        timeBase = stream.pointee.time_base
        channels = Int(decoder.pointee.ch_layout.nb_channels)
        sampleRate = Int(decoder.pointee.sample_rate)
        self.codec = String(cString: codec.pointee.name)
        let rate = Double(sampleRate)
        if stream.pointee.duration > 0 {
            frames = Int((Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base) * rate).rounded())
        } else if format.pointee.duration > 0 {
            frames = Int((Double(format.pointee.duration) / Double(AV_TIME_BASE) * rate).rounded())
        } else {
            frames = 0
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        made = true
    }

    deinit { close() }

    func close() {
        av_packet_free(&packet)
        av_frame_free(&frame)
        swr_free(&resampler)
        avcodec_free_context(&decoder)
        avformat_close_input(&format)
    }

    /// Up to `count` frames from the position on, interleaved; fewer at the end (a broken
    /// packet is skipped, as players do), none after it.
    func read(_ count: Int) -> [Float] {
        guard count > 0 else { return [] }
        while (pending.count - pendingStart) / channels < count, decodeMore() {}
        let available = min(count, (pending.count - pendingStart) / channels)
        let samples = Array(pending[pendingStart..<(pendingStart + available * channels)])
        pendingStart += available * channels
        if pendingStart > 65_536 || pendingStart == pending.count {
            pending.removeFirst(pendingStart)  // keeps its capacity: no new allocation next time
            pendingStart = 0
        }
        position += available
        return samples
    }

    /// Moves to a frame: the container's seek to the packet at or before it, then the frames up
    /// to it decoded and dropped.
    func seek(to target: Int) {
        guard let format, let decoder else { return }
        let clamped = frames > 0 ? min(max(0, target), frames) : max(0, target)
        let timestamp = Int64((Double(clamped) / Double(sampleRate) / av_q2d(timeBase)).rounded(.down))
        guard av_seek_frame(format, stream, timestamp, AVSEEK_FLAG_BACKWARD) >= 0 else { return }
        avcodec_flush_buffers(decoder)
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        ended = false
        position = clamped
        skip = -1  // set from the first decoded frame's time
        seekTarget = clamped
    }
    private var seekTarget = 0

    /// Decodes the next packet's frames into `pending`; false at the end of the file.
    private func decodeMore() -> Bool {
        guard !ended, let format, let decoder, let packet, let frame else { return false }
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                append(frame)
                av_frame_unref(frame)
                return true
            }
            if received == cffmpeg_eof() {
                ended = true
                return false
            }
            // The decoder wants more: the next packet of our stream (a broken one is skipped).
            let read = av_read_frame(format, packet)
            if read < 0 {
                avcodec_send_packet(decoder, nil)  // drains what the decoder still holds
                continue
            }
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == stream { _ = avcodec_send_packet(decoder, packet) }
        }
    }

    /// One decoded frame, converted, onto `pending` (after a seek, from the target on).
    private func append(_ frame: UnsafeMutablePointer<AVFrame>) {
        let count = Int(frame.pointee.nb_samples)
        guard count > 0, let resampler else { return }
        var drop = 0
        if skip < 0 {
            let time = frame.pointee.best_effort_timestamp
            let start = time == Int64.min ? seekTarget : Int((Double(time) * av_q2d(timeBase) * Double(sampleRate)).rounded())
            skip = max(0, seekTarget - start)
        }
        if skip > 0 {
            drop = min(skip, count)
            skip -= drop
        }
        let old = pending.count
        pending.append(contentsOf: repeatElement(0, count: count * channels))
        let converted = pending.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress! + old)
                .assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &out) { outs in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: channels) { ins in
                    swr_convert(resampler, outs, Int32(count), ins, Int32(count))
                }
            }
        }
        let got = max(0, Int(converted))
        pending.removeLast((count - got) * channels)
        if drop > 0 { pending.removeSubrange(old..<(old + min(drop, got) * channels)) }
    }

    /// FFmpeg's own log says only errors (its encoders print statistics at info level when closed,
    /// on the app's stderr); what fails reaches the caller as an error anyway.
    static func quietLibraries() {
        if av_log_get_level() > AV_LOG_ERROR { av_log_set_level(AV_LOG_ERROR) }
    }

    static func error(_ path: String, _ what: String, _ status: Int32) -> SoundFileError {
        SoundFileError(description: "\(what) \(path): \(reason(status))")
    }

    /// FFmpeg's words for an error code.
    static func reason(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        av_strerror(status, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
