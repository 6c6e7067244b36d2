/// The type of an audio port, with Apple's raw values (`Headphones`, `BluetoothHFP`, …).
public struct PortType: Hashable, Sendable, CustomStringConvertible {
    /// Apple's raw value, also the scenario-file name.
    public let rawValue: String

    init(_ rawValue: String) { self.rawValue = rawValue }

    public static let receiver = PortType("Receiver")
    public static let speaker = PortType("Speaker")
    public static let microphoneBuiltIn = PortType("MicrophoneBuiltIn")
    public static let headphones = PortType("Headphones")
    public static let microphoneWired = PortType("MicrophoneWired")
    public static let bluetoothA2DPOutput = PortType("BluetoothA2DPOutput")
    public static let bluetoothHFP = PortType("BluetoothHFP")
    public static let usbAudio = PortType("USBAudio")
    public static let hdmiOutput = PortType("HDMIOutput")
    public static let lineOut = PortType("LineOut")
    public static let lineIn = PortType("LineIn")
    public static let airPlay = PortType("AirPlay")
    public static let carAudio = PortType("CarAudio")

    /// Every port type SPEC §9–10 knows.
    public static let allCases: [PortType] = [
        .receiver, .speaker, .microphoneBuiltIn, .headphones, .microphoneWired, .bluetoothA2DPOutput,
        .bluetoothHFP, .usbAudio, .hdmiOutput, .lineOut, .lineIn, .airPlay, .carAudio,
    ]

    /// The port type with this raw value, or `nil`.
    public init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// One port of the device: a type, a UID shared by all ports of one accessory, and a name.
public struct Port: Hashable, Sendable, CustomStringConvertible {
    public var type: PortType
    public var uid: String
    public var name: String

    public init(type: PortType, uid: String, name: String) {
        self.type = type
        self.uid = uid
        self.name = name
    }

    public var description: String { "\(type.rawValue)(\(uid))" }
}
