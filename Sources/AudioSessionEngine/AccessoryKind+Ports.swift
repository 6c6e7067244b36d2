import AudioSessionModel

extension AccessoryKind {
    /// The ports the accessory brings, all carrying its UID (SPEC §9.1).
    func ports(uid: String, sampleRate: Double? = nil) -> [DevicePort] {
        func port(_ type: PortType, _ name: String, input: Bool) -> DevicePort {
            var port = Port(type: type, uid: uid, name: name)
            port.sampleRate = sampleRate  // HW1: the device's own rate, when it said
            return DevicePort(port: port, isInput: input)
        }
        return switch kind {
        case .headphones: [port(.headphones, "Headphones", input: false)]
        case .headset:
            [port(.headphones, "Headset", input: false), port(.microphoneWired, "Headset Microphone", input: true)]
        case .bluetoothA2DP: [port(.bluetoothA2DPOutput, "Bluetooth Speaker", input: false)]
        case .bluetoothHFP:
            [port(.bluetoothHFP, "Bluetooth Hands-Free", input: false), port(.bluetoothHFP, "Bluetooth Hands-Free", input: true)]
        case .bluetoothHeadset:
            [
                port(.bluetoothA2DPOutput, "Bluetooth Headset", input: false),
                port(.bluetoothHFP, "Bluetooth Headset", input: false),
                port(.bluetoothHFP, "Bluetooth Headset", input: true),
            ]
        case .usb: [port(.usbAudio, "USB Audio", input: false), port(.usbAudio, "USB Audio", input: true)]
        case .hdmi: [port(.hdmiOutput, "HDMI", input: false)]
        case .lineOut: [port(.lineOut, "Line Out", input: false)]
        case .lineIn: [port(.lineIn, "Line In", input: true)]
        case .airPlay: [port(.airPlay, "AirPlay", input: false)]
        case .car: [port(.carAudio, "CarPlay", input: false), port(.carAudio, "CarPlay", input: true)]
        case .wiredMicrophone: [port(.microphoneWired, "Microphone", input: true)]
        case .usbOutput: [port(.usbAudio, "USB Audio", input: false)]
        case .usbInput: [port(.usbAudio, "USB Audio", input: true)]
        }
    }
}
