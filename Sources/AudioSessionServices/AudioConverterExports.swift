import CAudioSessionServices

// The functions of AudioConverterServices.h (SPEC §19 SO9): linear PCM converted through the one
// converter; every error comes back as Apple's OSStatus.

enum CConverters {
    static let live = CHandles<CAudioConverter>(first: 0x4000_0000)
    static let parameter = CStatus(Int(kAudio_ParamError))
    static let badSize = CStatus(Int(kAudioConverterErr_BadPropertySizeError))

    /// The first buffer of a list: its data and bytes (the converter takes interleaved linear PCM).
    static func buffer(_ list: UnsafePointer<AudioBufferList>?) throws(CStatus) -> (UnsafeMutableRawPointer, Int) {
        guard let list, list.pointee.mNumberBuffers >= 1, let data = list.pointee.mBuffers.mData else { throw parameter }
        return (data, Int(list.pointee.mBuffers.mDataByteSize))
    }
}

@_cdecl("AudioConverterNew")
public func cConverterNew(
    _ source: UnsafePointer<AudioStreamBasicDescription>?, _ destination: UnsafePointer<AudioStreamBasicDescription>?,
    _ out: UnsafeMutablePointer<AudioConverterRef?>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        guard let source, let destination, let out else { throw CConverters.parameter }
        let converter = try CAudioConverter(from: source.pointee, to: destination.pointee)
        out.pointee = CConverters.live.add { _ in converter }
    }
}

@_cdecl("AudioConverterDispose")
public func cConverterDispose(_ converter: AudioConverterRef?) -> OSStatus {
    CStatus.of { () throws(CStatus) in _ = try CConverters.live.remove(converter) }
}

@_cdecl("AudioConverterReset")
public func cConverterReset(_ converter: AudioConverterRef?) -> OSStatus {
    CStatus.of { () throws(CStatus) in try CConverters.live.find(converter).reset() }
}

@_cdecl("AudioConverterFillComplexBuffer")
public func cConverterFillComplexBuffer(
    _ handle: AudioConverterRef?, _ procedure: AudioConverterComplexInputDataProc?, _ userData: UnsafeMutableRawPointer?,
    _ packets: UnsafeMutablePointer<UInt32>?, _ output: UnsafeMutablePointer<AudioBufferList>?,
    _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    var status: OSStatus = 0
    let outcome = CStatus.of { () throws(CStatus) in
        let converter = try CConverters.live.find(handle)
        guard let procedure, let packets else { throw CConverters.parameter }
        let (data, bytes) = try CConverters.buffer(output)
        let wanted = min(Int(packets.pointee), bytes / converter.output.bytesPerFrame)
        let (made, error) = converter.fill(frames: wanted, into: data) { asked in
            var count = UInt32(asked)
            var list = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(mNumberChannels: UInt32(converter.input.channels), mDataByteSize: 0, mData: nil))
            var described: UnsafeMutablePointer<AudioStreamPacketDescription>?
            let answer = procedure(handle, &count, &list, &described, userData)
            guard answer == 0 else { return .failed(answer) }
            guard count > 0, let pointer = list.mBuffers.mData else { return .end }
            let frames = min(Int(count), Int(list.mBuffers.mDataByteSize) / converter.input.bytesPerFrame)
            return frames > 0 ? .data(UnsafeRawPointer(pointer), frames: frames) : .end
        }
        packets.pointee = UInt32(made)
        output!.pointee.mBuffers.mDataByteSize = UInt32(made * converter.output.bytesPerFrame)
        status = error
    }
    return outcome != 0 ? outcome : status
}

@_cdecl("AudioConverterConvertBuffer")
public func cConverterConvertBuffer(
    _ handle: AudioConverterRef?, _ inputSize: UInt32, _ input: UnsafeRawPointer?, _ outputSize: UnsafeMutablePointer<UInt32>?,
    _ output: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let converter = try CConverters.live.find(handle)
        guard let input, let outputSize, let output else { throw CConverters.parameter }
        let frames = Int(inputSize) / converter.input.bytesPerFrame
        guard Int(outputSize.pointee) >= frames * converter.output.bytesPerFrame else {
            throw CStatus(Int(kAudioConverterErr_InvalidOutputSize))
        }
        try converter.convert(input, frames: frames, into: output)
        outputSize.pointee = UInt32(frames * converter.output.bytesPerFrame)
    }
}

@_cdecl("AudioConverterConvertComplexBuffer")
public func cConverterConvertComplexBuffer(
    _ handle: AudioConverterRef?, _ frames: UInt32, _ input: UnsafePointer<AudioBufferList>?,
    _ output: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let converter = try CConverters.live.find(handle)
        let (source, sourceBytes) = try CConverters.buffer(input)
        let (destination, destinationBytes) = try CConverters.buffer(output)
        guard sourceBytes >= Int(frames) * converter.input.bytesPerFrame else {
            throw CStatus(Int(kAudioConverterErr_InvalidInputSize))
        }
        guard destinationBytes >= Int(frames) * converter.output.bytesPerFrame else {
            throw CStatus(Int(kAudioConverterErr_InvalidOutputSize))
        }
        try converter.convert(source, frames: Int(frames), into: destination)
        output!.pointee.mBuffers.mDataByteSize = UInt32(Int(frames) * converter.output.bytesPerFrame)
    }
}

/// A property's bytes, or 'prop'.
func converterProperty(_ converter: CAudioConverter, _ id: AudioConverterPropertyID) throws(CStatus) -> [UInt8] {
    switch Int(id) {
    case kAudioConverterCurrentInputStreamDescription: return CAudioUnit.bytes(of: converter.input.description)
    case kAudioConverterCurrentOutputStreamDescription: return CAudioUnit.bytes(of: converter.output.description)
    case kAudioConverterSampleRateConverterQuality: return CAudioUnit.bytes(of: converter.quality)
    case kAudioConverterPrimeInfo: return CAudioUnit.bytes(of: AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0))
    case kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMinimumInputBufferSize:
        return CAudioUnit.bytes(of: UInt32(converter.input.bytesPerFrame))
    case kAudioConverterPropertyMaximumOutputPacketSize, kAudioConverterPropertyMinimumOutputBufferSize:
        return CAudioUnit.bytes(of: UInt32(converter.output.bytesPerFrame))
    case kAudioConverterChannelMap:
        let map = converter.channelMap ?? (0..<converter.output.channels).map { Int32(min($0, converter.input.channels - 1)) }
        return map.flatMap { CAudioUnit.bytes(of: $0) }
    default: throw CStatus(Int(kAudioConverterErr_PropertyNotSupported))
    }
}

@_cdecl("AudioConverterGetPropertyInfo")
public func cConverterGetPropertyInfo(
    _ handle: AudioConverterRef?, _ id: AudioConverterPropertyID, _ size: UnsafeMutablePointer<UInt32>?,
    _ writable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let bytes = try converterProperty(try CConverters.live.find(handle), id)
        size?.pointee = UInt32(bytes.count)
        writable?.pointee = [kAudioConverterSampleRateConverterQuality, kAudioConverterChannelMap].contains(Int(id)) ? 1 : 0
    }
}

@_cdecl("AudioConverterGetProperty")
public func cConverterGetProperty(
    _ handle: AudioConverterRef?, _ id: AudioConverterPropertyID, _ size: UnsafeMutablePointer<UInt32>?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let bytes = try converterProperty(try CConverters.live.find(handle), id)
        guard let size, let data else { throw CConverters.parameter }
        guard Int(size.pointee) >= bytes.count else { throw CConverters.badSize }
        bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        size.pointee = UInt32(bytes.count)
    }
}

@_cdecl("AudioConverterSetProperty")
public func cConverterSetProperty(
    _ handle: AudioConverterRef?, _ id: AudioConverterPropertyID, _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let converter = try CConverters.live.find(handle)
        guard let data else { throw CConverters.parameter }
        switch Int(id) {
        case kAudioConverterSampleRateConverterQuality, kAudioConverterSampleRateConverterComplexity,
            kAudioConverterCodecQuality, kAudioConverterPrimeMethod:
            guard size == 4 else { throw CConverters.badSize }
            if Int(id) == kAudioConverterSampleRateConverterQuality {
                try converter.setQuality(data.loadUnaligned(as: UInt32.self))
            }
        case kAudioConverterChannelMap:
            guard size > 0, size % 4 == 0 else { throw CConverters.badSize }
            converter.channelMap = (0..<Int(size / 4)).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        default:
            throw CStatus(Int(kAudioConverterErr_PropertyNotSupported))
        }
    }
}
