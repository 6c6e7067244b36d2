/// A kind of accessory that can be plugged into the device (SPEC §9.1 `system plug KIND`).
public struct AccessoryKind: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: UInt8, CaseIterable, Sendable {
        case headphones, headset, bluetoothA2DP, bluetoothHFP, bluetoothHeadset, usb, hdmi, lineOut, lineIn, airPlay, car
        // Beyond §9.1 (decision): one-direction devices as a sound server lists them, each sink
        // and source an accessory of its own.
        case wiredMicrophone, usbOutput, usbInput
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    public static let headphones = AccessoryKind(.headphones)
    public static let headset = AccessoryKind(.headset)
    public static let bluetoothA2DP = AccessoryKind(.bluetoothA2DP)
    public static let bluetoothHFP = AccessoryKind(.bluetoothHFP)
    public static let bluetoothHeadset = AccessoryKind(.bluetoothHeadset)
    public static let usb = AccessoryKind(.usb)
    public static let hdmi = AccessoryKind(.hdmi)
    public static let lineOut = AccessoryKind(.lineOut)
    public static let lineIn = AccessoryKind(.lineIn)
    public static let airPlay = AccessoryKind(.airPlay)
    public static let car = AccessoryKind(.car)
    /// A wired microphone alone (a headset's source on a sound server): MicrophoneWired, input.
    public static let wiredMicrophone = AccessoryKind(.wiredMicrophone)
    /// A USB audio device's output alone (a USB sink).
    public static let usbOutput = AccessoryKind(.usbOutput)
    /// A USB audio device's input alone (a USB source).
    public static let usbInput = AccessoryKind(.usbInput)

    public static let allCases: [AccessoryKind] = Kind.allCases.map(AccessoryKind.init)

    /// The scenario name (`headphones`, `bt-a2dp`, …), also the prefix of default UIDs.
    public var name: String {
        switch kind {
        case .headphones: "headphones"
        case .headset: "headset"
        case .bluetoothA2DP: "bt-a2dp"
        case .bluetoothHFP: "bt-hfp"
        case .bluetoothHeadset: "bt-headset"
        case .usb: "usb"
        case .hdmi: "hdmi"
        case .lineOut: "line-out"
        case .lineIn: "line-in"
        case .airPlay: "airplay"
        case .car: "car"
        case .wiredMicrophone: "wired-mic"
        case .usbOutput: "usb-out"
        case .usbInput: "usb-in"
        }
    }

    public init?(name: String) {
        guard let match = Kind.allCases.first(where: { AccessoryKind($0).name == name }) else { return nil }
        self.kind = match
    }

    public var description: String { name }
}
