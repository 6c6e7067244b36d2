import Foundation

// CoreAudioTypes as iOS Swift code names them (SPEC EN1, EN4): the frame and bus counts, the buffer
// list a source node's render block fills, and the time stamp it is given. Same fields and layout
// as Apple's C structs.

/// OSStatus: 0 is success.
public typealias OSStatus = Int32
/// Success, as render blocks return it.
public let noErr: OSStatus = 0
public typealias AVAudioFrameCount = UInt32
public typealias AVAudioFramePosition = Int64
public typealias AVAudioPacketCount = UInt32
public typealias AVAudioChannelCount = UInt32
public typealias AVAudioNodeBus = Int

/// One buffer of an `AudioBufferList`: its channels (interleaved in it), its size and its bytes.
public struct AudioBuffer: @unchecked Sendable {
    public var mNumberChannels: UInt32
    public var mDataByteSize: UInt32
    public var mData: UnsafeMutableRawPointer?

    public init() { (mNumberChannels, mDataByteSize, mData) = (0, 0, nil) }
    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        (self.mNumberChannels, self.mDataByteSize, self.mData) = (mNumberChannels, mDataByteSize, mData)
    }
}

/// A variable-length list of buffers: `mNumberBuffers` of them, the first in `mBuffers`, the rest
/// right after it in memory (use `UnsafeMutableAudioBufferListPointer` to reach them).
public struct AudioBufferList: @unchecked Sendable {
    public var mNumberBuffers: UInt32
    public var mBuffers: AudioBuffer

    public init() { (mNumberBuffers, mBuffers) = (0, AudioBuffer()) }
    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        (self.mNumberBuffers, self.mBuffers) = (mNumberBuffers, mBuffers)
    }

    /// Room for `maximumBuffers` buffers, zeroed; free it with `free(_:)` of its `unsafeMutablePointer`.
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let bytes = sizeOfAudioBufferList(maximumBuffers: maximumBuffers)
        let raw = calloc(1, bytes)!
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        list.pointee.mNumberBuffers = UInt32(maximumBuffers)
        return UnsafeMutableAudioBufferListPointer(list)
    }

    public static func sizeOfAudioBufferList(maximumBuffers: Int) -> Int {
        MemoryLayout<AudioBufferList>.size - MemoryLayout<AudioBuffer>.size + max(1, maximumBuffers)
            * MemoryLayout<AudioBuffer>.stride
    }
}

/// The buffers of an `AudioBufferList` as a collection, as in Apple's Swift overlay.
public struct UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection, @unchecked Sendable {
    public let unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>
    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    public init(_ pointer: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = pointer }
    public init?(_ pointer: UnsafeMutablePointer<AudioBufferList>?) {
        guard let pointer else { return nil }
        unsafeMutablePointer = pointer
    }

    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        UnsafeMutableRawPointer(unsafeMutablePointer).advanced(by: MemoryLayout<AudioBufferList>.offset(of: \.mBuffers)!)
            .assumingMemoryBound(to: AudioBuffer.self)
    }

    public subscript(index: Int) -> AudioBuffer {
        get { buffers[index] }
        nonmutating set { buffers[index] = newValue }
    }
}

/// Which fields of an `AudioTimeStamp` hold a value.
public struct AudioTimeStampFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sampleTimeValid = AudioTimeStampFlags(rawValue: 1)
    public static let hostTimeValid = AudioTimeStampFlags(rawValue: 2)
    public static let rateScalarValid = AudioTimeStampFlags(rawValue: 4)
    public static let sampleHostTimeValid: AudioTimeStampFlags = [.sampleTimeValid, .hostTimeValid]
}

/// A moment of an audio stream: its sample time and the host time (here: the monotonic clock in nanoseconds).
public struct AudioTimeStamp: Sendable {
    public var mSampleTime: Float64 = 0
    public var mHostTime: UInt64 = 0
    public var mRateScalar: Float64 = 0
    public var mWordClockTime: UInt64 = 0
    public var mFlags = AudioTimeStampFlags()
    public var mReserved: UInt32 = 0

    public init() {}
    public init(mSampleTime: Float64, mHostTime: UInt64, mRateScalar: Float64, mFlags: AudioTimeStampFlags) {
        (self.mSampleTime, self.mHostTime, self.mRateScalar, self.mFlags) = (mSampleTime, mHostTime, mRateScalar, mFlags)
    }
}
