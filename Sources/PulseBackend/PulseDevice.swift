import AudioSessionModel

/// A sink or source as the sound server describes it: what the port mapping reads. Built from
/// libpulse's info structs by `PulseServer`, or by hand in tests.
public struct PulseDevice: Hashable, Sendable {
    public var index: UInt32
    /// The sink or source name: the session port's UID.
    public var name: String
    public var description: String
    public var isSink: Bool
    /// The proplist (`device.bus`, `device.form_factor`, `device.class`, `bluetooth.protocol` …).
    public var properties: [String: String]
    /// The active port's name and libpulse port type (`pa_device_port_type_t`, 0 unknown).
    public var activePortName: String?
    public var activePortType: UInt32
    /// False when the active port says nothing is plugged into it (`PA_PORT_AVAILABLE_NO`): the
    /// device is then as good as unplugged.
    public var isAvailable: Bool
    /// Its volume as a slider position (the loudest channel; 1 = 100%), if known.
    public var volume: Double?
    /// Each channel's volume as the server has it (`PA_VOLUME_NORM` is 100%): its balance.
    public var channelVolumes: [UInt32] = []
    /// The rate it runs at (its sample spec's), if known: a plugged accessory's ports run at it (HW1).
    public var sampleRate: Double?

    public init(
        index: UInt32, name: String, description: String = "", isSink: Bool, properties: [String: String] = [:],
        activePortName: String? = nil, activePortType: UInt32 = 0, isAvailable: Bool = true, volume: Double? = nil,
        channelVolumes: [UInt32] = [], sampleRate: Double? = nil
    ) {
        self.sampleRate = sampleRate
        self.volume = volume
        self.channelVolumes = channelVolumes
        self.isAvailable = isAvailable
        self.index = index
        self.name = name
        self.description = description
        self.isSink = isSink
        self.properties = properties
        self.activePortName = activePortName
        self.activePortType = activePortType
    }
}

/// What a server device is to the session: one of the profile's built-in ports, an accessory,
/// or nothing (a monitor source, the output half of a hands-free device).
public enum PulsePortRole: Hashable, Sendable {
    case builtInSpeaker
    case builtInMicrophone
    case accessory(AccessoryKind)
    case ignored(String)
}

extension PulseDevice {
    /// libpulse's `pa_device_port_type_t` values the mapping reads (PulseAudio 14 and later).
    enum PortType {
        static let speaker: UInt32 = 2, headphones: UInt32 = 3, line: UInt32 = 4, mic: UInt32 = 5
        static let headset: UInt32 = 6, hdmi: UInt32 = 10, usb: UInt32 = 14, bluetooth: UInt32 = 15
    }

    /// CL1: a monitor source (what a sink plays, as a screen recorder or a level meter records it).
    public var isMonitor: Bool {
        properties["device.class"] == "monitor" || (!isSink && name.hasSuffix(".monitor"))
    }

    /// The session port a device becomes (issue 6): bluetooth A2DP and hands-free profiles →
    /// BluetoothA2DPOutput / BluetoothHFP, usb → USBAudio, hdmi → HDMIOutput, headphone and
    /// headset form factors or jack ports → Headphones / MicrophoneWired, the internal speaker
    /// and microphone → the built-in ports, line → LineOut / LineIn. A device the properties do
    /// not name is a line port: audio can go there, and the user sees its description.
    public var role: PulsePortRole {
        let bus = properties["device.bus"] ?? ""
        let formFactor = properties["device.form_factor"] ?? ""
        let port = (activePortName ?? "").lowercased()
        if properties["device.class"] == "monitor" {
            return .ignored("a monitor of \(properties["device.master_device"] ?? "a sink")")
        }
        if bus == "bluetooth" || activePortType == PortType.bluetooth { return bluetoothRole }
        if bus == "usb" || activePortType == PortType.usb { return .accessory(isSink ? .usbOutput : .usbInput) }
        if isSink, formFactor == "tv" || activePortType == PortType.hdmi || port.contains("hdmi") { return .accessory(.hdmi) }
        let jack =
            ["headphone", "headphones", "headset", "hands-free"].contains(formFactor)
            || activePortType == PortType.headphones || activePortType == PortType.headset
            || port.contains("headphone") || port.contains("headset")
        if jack { return .accessory(isSink ? .headphones : .wiredMicrophone) }
        let builtIn =
            ["internal", "speaker", "microphone", "computer", "handset", "webcam"].contains(formFactor)
            || activePortType == PortType.speaker || port.contains("speaker") || port.contains("internal")
        if builtIn { return isSink ? .builtInSpeaker : .builtInMicrophone }
        return .accessory(isSink ? .lineOut : .lineIn)
    }

    /// A2DP is output only; a hands-free (HSP/HFP) device is one session port in and out,
    /// carried by its source — its sink is the same device.
    private var bluetoothRole: PulsePortRole {
        let profile = [properties["bluetooth.protocol"], properties["device.profile.name"], properties["api.bluez5.profile"]]
            .compactMap { $0?.lowercased() }.joined(separator: " ")
        let handsFree =
            profile.contains("head") || profile.contains("hands") || profile.contains("hfp") || profile.contains("hsp")
        if isSink {
            return handsFree ? .ignored("the output of a hands-free device (its source carries it)") : .accessory(.bluetoothA2DP)
        }
        return .accessory(.bluetoothHFP)
    }
}
