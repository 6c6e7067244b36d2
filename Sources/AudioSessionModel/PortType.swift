/// The type of an audio port, with Apple's raw values (`Headphones`, `BluetoothHFP`, …).
public struct PortType: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: UInt8, CaseIterable, Sendable {
        case receiver, speaker, microphoneBuiltIn, headphones, microphoneWired, bluetoothA2DPOutput, bluetoothHFP,
            usbAudio, hdmiOutput, lineOut, lineIn, airPlay, carAudio
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    public static let receiver = PortType(.receiver)
    public static let speaker = PortType(.speaker)
    public static let microphoneBuiltIn = PortType(.microphoneBuiltIn)
    public static let headphones = PortType(.headphones)
    public static let microphoneWired = PortType(.microphoneWired)
    public static let bluetoothA2DPOutput = PortType(.bluetoothA2DPOutput)
    public static let bluetoothHFP = PortType(.bluetoothHFP)
    public static let usbAudio = PortType(.usbAudio)
    public static let hdmiOutput = PortType(.hdmiOutput)
    public static let lineOut = PortType(.lineOut)
    public static let lineIn = PortType(.lineIn)
    public static let airPlay = PortType(.airPlay)
    public static let carAudio = PortType(.carAudio)

    /// Every port type SPEC §9–10 knows.
    public static let allCases: [PortType] = Kind.allCases.map(PortType.init)

    /// Apple's raw value, also the scenario-file name (`Headphones`, `BluetoothHFP`, …).
    public var rawValue: String {
        switch kind {
        case .receiver: "Receiver"
        case .speaker: "Speaker"
        case .microphoneBuiltIn: "MicrophoneBuiltIn"
        case .headphones: "Headphones"
        case .microphoneWired: "MicrophoneWired"
        case .bluetoothA2DPOutput: "BluetoothA2DPOutput"
        case .bluetoothHFP: "BluetoothHFP"
        case .usbAudio: "USBAudio"
        case .hdmiOutput: "HDMIOutput"
        case .lineOut: "LineOut"
        case .lineIn: "LineIn"
        case .airPlay: "AirPlay"
        case .carAudio: "CarAudio"
        }
    }

    /// The port type with this raw value, or `nil`.
    public init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }

    public var description: String { rawValue }

    /// PL8: a device one person listens to — headphones (a headset's too), Bluetooth, USB — whose
    /// loss would otherwise move what plays to everyone's speaker.
    public var isPrivate: Bool {
        switch kind {
        case .headphones, .bluetoothA2DPOutput, .bluetoothHFP, .usbAudio: true
        default: false
        }
    }
}

/// One port of the device: a type, a UID shared by all ports of one accessory, and a name.
public struct Port: Hashable, Sendable, CustomStringConvertible {
    public var type: PortType
    public var uid: String
    public var name: String
    /// RT12: the port's data sources (the built-in mic's, per profile), and the selected one.
    public var dataSources: [String]
    public var selectedDataSource: String?
    /// HW1: the one rate the port's hardware runs at, when the device says (a sound server's
    /// sink or source); nil: the rates of its type (§10's table).
    public var sampleRate: Double?

    public init(type: PortType, uid: String, name: String, dataSources: [String] = []) {
        self.type = type
        self.uid = uid
        self.name = name
        self.dataSources = dataSources
        // RT12: the first listed is selected by default.
        self.selectedDataSource = dataSources.first
    }

    public var description: String { "\(type.rawValue)(\(uid))" }

    /// §9.1: UIDs match `[A-Za-z0-9._:-]+`.
    public static func isValidUID(_ uid: String) -> Bool {
        !uid.isEmpty
            && uid.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                    || ".-_:".unicodeScalars.contains($0)
            }
    }
}
