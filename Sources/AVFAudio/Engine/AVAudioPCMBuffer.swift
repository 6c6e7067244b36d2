import Foundation

/// Apple's `AVAudioBuffer`: a format and its bytes as an `AudioBufferList`.
open class AVAudioBuffer: NSObject, @unchecked Sendable {
    public let format: AVAudioFormat
    let list: UnsafeMutableAudioBufferListPointer

    init(format: AVAudioFormat, buffers: Int) {
        self.format = format
        list = AudioBufferList.allocate(maximumBuffers: buffers)
        super.init()
    }

    deinit { free(list.unsafeMutablePointer) }

    /// The buffer list (its sizes follow `frameLength` for a PCM buffer).
    public var audioBufferList: UnsafePointer<AudioBufferList> { list.unsafePointer }
    public var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { list.unsafeMutablePointer }
}

/// Apple's `AVAudioPCMBuffer` (SPEC EN1): room for `frameCapacity` frames of a PCM format, of which
/// `frameLength` hold samples. A deinterleaved format has one channel array each; an interleaved one
/// one array (`stride` is then the channel count). `frameLength` above the capacity is refused
/// (it stays as it was, and the reason is printed): iOS raises an exception there.
open class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    public let frameCapacity: AVAudioFrameCount
    private let storage: UnsafeMutableRawPointer
    private let pointers: UnsafeMutableRawPointer  // one pointer per channel array
    private var length: AVAudioFrameCount = 0

    /// nil for a format that is not PCM or a capacity of 0 frames… as on iOS, 0 is allowed and
    /// makes an empty buffer; nil only for `.otherFormat`.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        guard format.commonFormat != .otherFormat else { return nil }
        self.frameCapacity = frameCapacity
        let channels = Int(format.channelCount)
        let arrays = format.isInterleaved ? 1 : channels
        let bytesPerArray = Int(frameCapacity) * format.commonFormat.bytesPerSample * (format.isInterleaved ? channels : 1)
        storage = calloc(max(1, arrays * bytesPerArray), 1)!
        pointers = calloc(arrays, MemoryLayout<UnsafeMutableRawPointer>.stride)!
        let table = pointers.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        for array in 0..<arrays { table[array] = storage + array * bytesPerArray }
        super.init(format: format, buffers: arrays)
        for array in 0..<arrays {
            list[array] = AudioBuffer(
                mNumberChannels: UInt32(format.isInterleaved ? channels : 1), mDataByteSize: 0, mData: table[array])
        }
    }

    deinit {
        free(storage)
        free(pointers)
    }

    /// Frames that hold samples; set it after writing into the channel data.
    public var frameLength: AVAudioFrameCount {
        get { length }
        set {
            guard newValue <= frameCapacity else {
                FileHandle.standardError.write(
                    Data("AVAudioPCMBuffer: frameLength \(newValue) is over the capacity \(frameCapacity); kept \(length)\n".utf8)
                )
                return
            }
            length = newValue
            let bytesPerFrame = format.commonFormat.bytesPerSample * (format.isInterleaved ? Int(format.channelCount) : 1)
            for index in 0..<list.count { list[index].mDataByteSize = UInt32(Int(newValue) * bytesPerFrame) }
        }
    }

    /// Samples between one frame and the next in a channel array: the channel count when interleaved, else 1.
    public var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    private func channels<T>(_ type: T.Type, _ common: AVAudioCommonFormat) -> UnsafePointer<UnsafeMutablePointer<T>>? {
        guard format.commonFormat == common else { return nil }
        return UnsafePointer(pointers.assumingMemoryBound(to: UnsafeMutablePointer<T>.self))
    }

    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { channels(Float.self, .pcmFormatFloat32) }
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { channels(Int16.self, .pcmFormatInt16) }
    public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { channels(Int32.self, .pcmFormatInt32) }

    /// Ours: channel `channel`'s frame `frame` as a float in −1…1, whatever the format.
    func sample(channel: Int, frame: Int) -> Float {
        let table = pointers.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        let array = format.isInterleaved ? table[0] : table[channel]
        let index = format.isInterleaved ? frame * Int(format.channelCount) + channel : frame
        switch format.commonFormat {
        case .pcmFormatFloat32: return array.assumingMemoryBound(to: Float.self)[index]
        case .pcmFormatFloat64: return Float(array.assumingMemoryBound(to: Double.self)[index])
        case .pcmFormatInt16: return Float(array.assumingMemoryBound(to: Int16.self)[index]) / 32_768
        case .pcmFormatInt32: return Float(Double(array.assumingMemoryBound(to: Int32.self)[index]) / 2_147_483_648)
        case .otherFormat: return 0
        }
    }

    /// Ours: sets channel `channel`'s frame `frame` from a float in −1…1 (clipped for integers).
    func setSample(_ value: Float, channel: Int, frame: Int) {
        let table = pointers.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        let array = format.isInterleaved ? table[0] : table[channel]
        let index = format.isInterleaved ? frame * Int(format.channelCount) + channel : frame
        let clipped = max(-1, min(1, value))
        switch format.commonFormat {
        case .pcmFormatFloat32: array.assumingMemoryBound(to: Float.self)[index] = value
        case .pcmFormatFloat64: array.assumingMemoryBound(to: Double.self)[index] = Double(value)
        case .pcmFormatInt16:
            array.assumingMemoryBound(to: Int16.self)[index] = Int16(max(-32_768, min(32_767, (clipped * 32_768).rounded())))
        case .pcmFormatInt32:
            array.assumingMemoryBound(to: Int32.self)[index] = Int32(
                max(-2_147_483_648, min(2_147_483_647, (Double(clipped) * 2_147_483_648).rounded())))
        case .otherFormat: break
        }
    }
}
