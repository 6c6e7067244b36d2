import AudioSessionEngine
import Testing

@testable import PulseBackend

/// Issue 6: a sound server's sinks and sources as session ports, from their properties.
@Suite("Server devices to session ports")
struct PortMappingTests {
    static func sink(_ properties: [String: String], port: String? = nil, type: UInt32 = 0) -> PulseDevice {
        PulseDevice(index: 1, name: "sink", isSink: true, properties: properties, activePortName: port, activePortType: type)
    }

    static func source(_ properties: [String: String], port: String? = nil, type: UInt32 = 0) -> PulseDevice {
        PulseDevice(index: 1, name: "source", isSink: false, properties: properties, activePortName: port, activePortType: type)
    }

    @Test("Bluetooth: A2DP is an output, hands-free is one in-and-out port carried by its source")
    func bluetooth() {
        #expect(Self.sink(["device.bus": "bluetooth", "bluetooth.protocol": "a2dp_sink"]).role == .accessory(.bluetoothA2DP))
        #expect(Self.sink(["device.bus": "bluetooth", "api.bluez5.profile": "a2dp-sink"]).role == .accessory(.bluetoothA2DP))
        #expect(
            Self.source(["device.bus": "bluetooth", "bluetooth.protocol": "headset_head_unit"]).role == .accessory(.bluetoothHFP))
        guard case .ignored = Self.sink(["device.bus": "bluetooth", "device.profile.name": "handsfree_head_unit"]).role else {
            Issue.record("a hands-free sink is carried by its source")
            return
        }
    }

    @Test("USB, HDMI, jacks, internal devices and line ports")
    func wiredDevices() {
        #expect(Self.sink(["device.bus": "usb"]).role == .accessory(.usbOutput))
        #expect(Self.source(["device.bus": "usb"]).role == .accessory(.usbInput))
        #expect(Self.sink(["device.bus": "pci"], port: "hdmi-output-0").role == .accessory(.hdmi))
        #expect(Self.sink(["device.form_factor": "headphone"]).role == .accessory(.headphones))
        #expect(
            Self.sink([:], port: "analog-output-headphones", type: PulseDevice.PortType.headphones).role
                == .accessory(.headphones))
        #expect(Self.source(["device.form_factor": "headset"]).role == .accessory(.wiredMicrophone))
        #expect(Self.sink(["device.form_factor": "internal"]).role == .builtInSpeaker)
        #expect(Self.sink([:], port: "analog-output-speaker", type: PulseDevice.PortType.speaker).role == .builtInSpeaker)
        #expect(Self.source(["device.form_factor": "internal"], port: "analog-input-internal-mic").role == .builtInMicrophone)
        #expect(Self.sink([:], port: "analog-output-lineout", type: PulseDevice.PortType.line).role == .accessory(.lineOut))
        #expect(Self.source([:]).role == .accessory(.lineIn))  // a device nothing names: a line port
    }

    @Test("A sink's monitor is not a microphone")
    func monitors() {
        guard case .ignored = Self.source(["device.class": "monitor", "device.form_factor": "internal"]).role else {
            Issue.record("a monitor source became a port")
            return
        }
    }
}
