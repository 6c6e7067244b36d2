import CAudioSessionServices

/// A linear PCM format the sound objects take (SO4): 16-bit signed integer or 32-bit float,
/// native-endian, interleaved, 1–8 channels, 8–192 kHz. Anything else is 'fmt?'.
struct CPCMFormat: Equatable {
    let sampleRate: Int
    let channels: Int
    let isFloat: Bool
    var bytesPerFrame: Int { channels * (isFloat ? 4 : 2) }

    static let unsupported = CStatus(Int(kAudioFormatUnsupportedDataFormatError))

    init(sampleRate: Int, channels: Int, isFloat: Bool) {
        (self.sampleRate, self.channels, self.isFloat) = (sampleRate, channels, isFloat)
    }

    init(_ description: AudioStreamBasicDescription) throws(CStatus) {
        let flags = description.mFormatFlags
        guard description.mFormatID == UInt32(kAudioFormatLinearPCM),
            (1...8).contains(description.mChannelsPerFrame),
            (8_000...192_000).contains(description.mSampleRate),
            flags & UInt32(kAudioFormatFlagIsNonInterleaved | kAudioFormatFlagIsBigEndian) == 0,
            description.mFramesPerPacket == 1
        else { throw Self.unsupported }
        let float = flags & UInt32(kAudioFormatFlagIsFloat) != 0
        switch (float, description.mBitsPerChannel) {
        case (true, 32): isFloat = true
        case (false, 16) where flags & UInt32(kAudioFormatFlagIsSignedInteger) != 0: isFloat = false
        default: throw Self.unsupported
        }
        sampleRate = Int(description.mSampleRate)
        channels = Int(description.mChannelsPerFrame)
        guard description.mBytesPerFrame == UInt32(bytesPerFrame), description.mBytesPerPacket == UInt32(bytesPerFrame) else {
            throw Self.unsupported
        }
    }

    /// The format as Apple's struct (what StreamFormat and StreamDescription read back).
    var description: AudioStreamBasicDescription {
        let bits = UInt32(isFloat ? 32 : 16)
        let flags = UInt32(isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | UInt32(kAudioFormatFlagIsPacked)
        return AudioStreamBasicDescription(
            mSampleRate: Float64(sampleRate), mFormatID: UInt32(kAudioFormatLinearPCM), mFormatFlags: flags,
            mBytesPerPacket: UInt32(bytesPerFrame), mFramesPerPacket: 1, mBytesPerFrame: UInt32(bytesPerFrame),
            mChannelsPerFrame: UInt32(channels), mBitsPerChannel: bits, mReserved: 0)
    }

    /// `frames` frames at `bytes` as floats (−1…1), times `gain`.
    func decode(_ bytes: UnsafeRawPointer, frames: Int, gain: Float) -> [Float] {
        let count = frames * channels
        if isFloat {
            let samples = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Float.self), count: count)
            return gain == 1 ? Array(samples) : samples.map { $0 * gain }
        }
        let scale = gain / 32_768
        return UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Int16.self), count: count).map { Float($0) * scale }
    }

    /// Writes `samples` (whole frames) at `bytes` in this format.
    func encode(_ samples: ArraySlice<Float>, into bytes: UnsafeMutableRawPointer) {
        if isFloat {
            let target = bytes.assumingMemoryBound(to: Float.self)
            for (offset, sample) in samples.enumerated() { target[offset] = sample }
        } else {
            let target = bytes.assumingMemoryBound(to: Int16.self)
            for (offset, sample) in samples.enumerated() { target[offset] = Int16((min(1, max(-1, sample)) * 32_767).rounded()) }
        }
    }
}
