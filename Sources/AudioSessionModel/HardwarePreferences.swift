/// An app's hardware preferences (HW3, HW4), applied where SPEC HW1 says.
public struct HardwarePreferences: Hashable, Sendable {
    public var sampleRate: Double?
    public var ioBufferDuration: Double?
    public var inputChannels: Int?
    public var outputChannels: Int?

    public init() {}
}

/// One preference of `prefer KEY=VALUE` (HW3, HW4).
public enum HardwarePreference: Hashable, Sendable {
    case sampleRate(Double)
    case ioBufferDuration(Double)
    case inputChannels(Int)
    case outputChannels(Int)
}
