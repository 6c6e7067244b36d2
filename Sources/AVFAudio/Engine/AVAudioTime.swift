import Foundation

/// Apple's `AVAudioTime` (SPEC EN1): a moment as a sample time at a rate, a host time, or both.
/// Host time here is the monotonic clock in nanoseconds (iOS's mach ticks; `hostTime(forSeconds:)`
/// converts).
open class AVAudioTime: NSObject, @unchecked Sendable {
    public let sampleTime: AVAudioFramePosition
    public let hostTime: UInt64
    public let sampleRate: Double
    public let isSampleTimeValid: Bool
    public let isHostTimeValid: Bool

    public init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        (self.sampleTime, self.sampleRate, hostTime) = (sampleTime, sampleRate, 0)
        (isSampleTimeValid, isHostTimeValid) = (true, false)
    }

    public init(hostTime: UInt64) {
        (self.hostTime, sampleTime, sampleRate) = (hostTime, 0, 0)
        (isSampleTimeValid, isHostTimeValid) = (false, true)
    }

    public init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        (self.hostTime, self.sampleTime, self.sampleRate) = (hostTime, sampleTime, sampleRate)
        (isSampleTimeValid, isHostTimeValid) = (true, true)
    }

    public convenience init(audioTimeStamp ts: UnsafePointer<AudioTimeStamp>, sampleRate: Double) {
        let stamp = ts.pointee
        switch (stamp.mFlags.contains(.sampleTimeValid), stamp.mFlags.contains(.hostTimeValid)) {
        case (true, true): self.init(hostTime: stamp.mHostTime, sampleTime: Int64(stamp.mSampleTime), atRate: sampleRate)
        case (true, false): self.init(sampleTime: Int64(stamp.mSampleTime), atRate: sampleRate)
        default: self.init(hostTime: stamp.mHostTime)
        }
    }

    /// The time stamp with the fields that are valid.
    public var audioTimeStamp: AudioTimeStamp {
        var flags = AudioTimeStampFlags()
        if isSampleTimeValid { flags.insert(.sampleTimeValid) }
        if isHostTimeValid { flags.insert(.hostTimeValid) }
        return AudioTimeStamp(mSampleTime: Double(sampleTime), mHostTime: hostTime, mRateScalar: 1, mFlags: flags)
    }

    /// Host time (nanoseconds) for a number of seconds.
    public static func hostTime(forSeconds seconds: TimeInterval) -> UInt64 { UInt64(max(0, seconds) * 1_000_000_000) }
    /// Seconds for a host time.
    public static func seconds(forHostTime hostTime: UInt64) -> TimeInterval { Double(hostTime) / 1_000_000_000 }

    /// The monotonic clock now, as a host time.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// This time with what `other` knows added where this one does not (sample time converted at
    /// its rate from the host time difference, as Apple's does).
    public func extrapolateTime(fromAnchor anchorTime: AVAudioTime) -> AVAudioTime? {
        guard anchorTime.isSampleTimeValid, anchorTime.isHostTimeValid else { return nil }
        if isSampleTimeValid && isHostTimeValid { return self }
        if isHostTimeValid {
            let seconds = (Double(hostTime) - Double(anchorTime.hostTime)) / 1_000_000_000
            let sample = anchorTime.sampleTime + Int64((seconds * anchorTime.sampleRate).rounded())
            return AVAudioTime(hostTime: hostTime, sampleTime: sample, atRate: anchorTime.sampleRate)
        }
        let seconds = Double(sampleTime - anchorTime.sampleTime) / sampleRate
        let host = UInt64(max(0, Double(anchorTime.hostTime) + seconds * 1_000_000_000))
        return AVAudioTime(hostTime: host, sampleTime: sampleTime, atRate: sampleRate)
    }

    override open var description: String {
        "<AVAudioTime \(isHostTimeValid ? "host \(hostTime)" : "no host time"), "
            + "\(isSampleTimeValid ? "sample \(sampleTime) at \(sampleRate) Hz" : "no sample time")>"
    }
}
