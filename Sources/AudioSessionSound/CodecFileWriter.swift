import CFFmpeg

/// SO8: what a compressed recording is written with — FFmpeg's encoder and muxer.
public struct EncodedFormat: Sendable, Equatable {
    public enum Codec: String, Sendable {
        case aac, alac
    }
    public enum Strategy: String, Sendable {
        /// The bit rate is kept frame by frame.
        case constant
        /// The bit rate is kept on average; FFmpeg's AAC encoder always works so, which is what
        /// `LongTermAverage`, `VariableConstrained` and `Variable` ask of it here.
        case average
    }

    public var codec: Codec
    /// The container, by the file's extension: `ipod` (.m4a), `mp4`, `adts` (.aac), `caf`.
    public var container: String
    /// Bits per second for all channels (AAC only; nil: the quality's).
    public var bitRate: Int?
    public var strategy: Strategy

    public init(codec: Codec, container: String, bitRate: Int? = nil, strategy: Strategy = .average) {
        self.codec = codec
        self.container = container
        self.bitRate = bitRate
        self.strategy = strategy
    }
}

/// A compressed recording written piece by piece (AAC, Apple Lossless) through FFmpeg's
/// libavcodec encoders and libavformat muxers: interleaved float in, converted by libswresample
/// to what the encoder takes, one encoder frame at a time into buffers made once. The container's
/// index is written by `close()` (an `.m4a` is playable once closed). Not thread-safe.
final class CodecFileWriter {
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let path: String
    let channels: Int
    /// Frames per encoder frame (AAC 1024, ALAC 4096).
    private var frameSize = 1_024
    /// Interleaved samples not yet a whole encoder frame.
    private var pending: [Float] = []
    private var written: Int64 = 0

    /// Opens the file and its encoder.
    /// - Throws: naming the file and what FFmpeg refused (a bit rate, a rate or channel count the
    ///   encoder does not take, a directory it cannot write in).
    init(path: String, channels: Int, sampleRate: Int, format: EncodedFormat) throws(SoundFileError) {
        self.path = path
        self.channels = channels
        CodecFileReader.quietLibraries()
        func failed(_ what: String, _ status: Int32) -> SoundFileError {
            SoundFileError(description: "cannot write \(path): \(what) (\(CodecFileReader.reason(status)))")
        }
        var output: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&output, nil, format.container, path)
        guard status >= 0, let output else { throw failed("no \(format.container) container", status) }
        self.output = output
        let id = format.codec == .aac ? AV_CODEC_ID_AAC : AV_CODEC_ID_ALAC
        guard let codec = avcodec_find_encoder(id), let stream = avformat_new_stream(output, nil),
            let encoder = avcodec_alloc_context3(codec)
        else {
            avformat_free_context(output)
            throw SoundFileError(description: "cannot write \(path): FFmpeg has no \(format.codec.rawValue) encoder")
        }
        self.stream = stream
        self.encoder = encoder
        encoder.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&encoder.pointee.ch_layout, Int32(channels))
        encoder.pointee.sample_fmt = codec.pointee.sample_fmts[0]
        encoder.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if let bitRate = format.bitRate { encoder.pointee.bit_rate = Int64(bitRate) }
        if format.strategy == .constant, let bitRate = format.bitRate {
            (encoder.pointee.rc_min_rate, encoder.pointee.rc_max_rate) = (Int64(bitRate), Int64(bitRate))
        }
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        status = avcodec_open2(encoder, codec, nil)
        guard status >= 0 else {
            let refused = failed(
                "the \(format.codec.rawValue) encoder refuses \(sampleRate) Hz, \(channels) channels"
                    + (format.bitRate.map { " at \($0) bit/s" } ?? ""), status)
            close()
            throw refused
        }
        frameSize = encoder.pointee.frame_size > 0 ? Int(encoder.pointee.frame_size) : 1_024
        status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        stream.pointee.time_base = encoder.pointee.time_base
        if status >= 0, output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            status = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE)
        }
        if status >= 0 { status = avformat_write_header(output, nil) }
        guard status >= 0 else {
            let refused = failed("cannot start the file", status)
            close()
            throw refused
        }
        var (outLayout, inLayout) = (encoder.pointee.ch_layout, encoder.pointee.ch_layout)
        status = swr_alloc_set_opts2(
            &resampler, &outLayout, encoder.pointee.sample_fmt, Int32(sampleRate), &inLayout, AV_SAMPLE_FMT_FLT,
            Int32(sampleRate), 0, nil)
        if status >= 0 { status = swr_init(resampler) }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        if let frame {
            frame.pointee.nb_samples = Int32(frameSize)
            frame.pointee.format = encoder.pointee.sample_fmt.rawValue
            frame.pointee.sample_rate = Int32(sampleRate)
            av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.pointee.ch_layout)
            if status >= 0 { status = av_frame_get_buffer(frame, 0) }
        }
        guard status >= 0, frame != nil, packet != nil else {
            let refused = failed("cannot convert for the encoder", min(status, -1))
            close()
            throw refused
        }
        pending.reserveCapacity(frameSize * channels * 2)
    }

    deinit { close() }

    /// Appends interleaved samples; whole encoder frames are encoded and written at once.
    func append(_ samples: [Float]) throws(SoundFileError) {
        guard encoder != nil else { return }
        pending.append(contentsOf: samples)
        var start = 0
        while pending.count - start >= frameSize * channels {
            try encode(from: start, frames: frameSize)
            start += frameSize * channels
        }
        if start > 0 { pending.removeFirst(start) }
    }

    /// Encodes `frames` frames of `pending` from sample `start`.
    private func encode(from start: Int, frames: Int) throws(SoundFileError) {
        guard let frame, let resampler else { return }
        guard av_frame_make_writable(frame) >= 0 else {
            throw SoundFileError(description: "cannot write \(path): out of memory")
        }
        frame.pointee.nb_samples = Int32(frames)
        let converted = pending.withUnsafeBufferPointer { buffer -> Int32 in
            var input: UnsafePointer<UInt8>? = UnsafeRawPointer(buffer.baseAddress! + start).assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &input) { inputs in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: channels) { outs in
                    swr_convert(resampler, outs, Int32(frames), inputs, Int32(frames))
                }
            }
        }
        guard converted >= 0 else { throw SoundFileError(description: "cannot write \(path): conversion failed") }
        frame.pointee.pts = written
        written += Int64(frames)
        try send(frame)
    }

    /// Hands a frame (nil: the end) to the encoder and writes every packet it gives back.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(SoundFileError) {
        guard let encoder, let packet, let output else { return }
        var status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else {
            throw SoundFileError(
                description: "cannot write \(path): the encoder refused a frame (\(CodecFileReader.reason(status)))")
        }
        while true {
            status = avcodec_receive_packet(encoder, packet)
            if status == cffmpeg_eagain() || status == cffmpeg_eof() { return }
            guard status >= 0 else {
                throw SoundFileError(description: "cannot write \(path): \(CodecFileReader.reason(status))")
            }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            status = av_interleaved_write_frame(output, packet)
            guard status >= 0 else {
                throw SoundFileError(description: "cannot write \(path): \(CodecFileReader.reason(status))")
            }
        }
    }

    /// Encodes what is left, writes the container's index and closes the file; later appends do nothing.
    func close() {
        if let output, encoder != nil, frame != nil {
            let left = pending.count / channels
            if left > 0 { try? encode(from: 0, frames: left) }
            pending.removeAll()
            try? send(nil)
            av_write_trailer(output)
        }
        if let output, output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0, output.pointee.pb != nil {
            avio_closep(&output.pointee.pb)
        }
        av_frame_free(&frame)
        av_packet_free(&packet)
        swr_free(&resampler)
        avcodec_free_context(&encoder)
        if let output { avformat_free_context(output) }
        output = nil
    }
}
