import AudioSessionModel

/// Hardware facts of each port type (SPEC §10 table).
struct PortHardware {
    var sampleRates: [Double]
    var maxInputChannels = 0
    var maxOutputChannels = 0
    var defaultInputChannels = 0
    var defaultOutputChannels = 0
    var inputLatency: Double = 0
    var outputLatency: Double = 0
    /// HW6: whether the input's gain can be set.
    var inputGainSettable = false

    static func of(_ type: PortType, on profile: DeviceProfile) -> PortHardware {
        let common: [Double] = [44100, 48000]
        switch type.kind {
        case .receiver:
            return PortHardware(sampleRates: common, maxOutputChannels: 1, defaultOutputChannels: 1, outputLatency: 0.0008)
        case .speaker:
            let channels = profile == .iphone ? 1 : 2
            return PortHardware(
                sampleRates: common, maxOutputChannels: channels, defaultOutputChannels: channels, outputLatency: 0.0008)
        case .microphoneBuiltIn:
            return PortHardware(
                sampleRates: common, maxInputChannels: profile == .iphone ? 1 : 2, defaultInputChannels: 1,
                inputLatency: 0.0015, inputGainSettable: true)
        case .headphones, .microphoneWired:
            return PortHardware(
                sampleRates: common, maxInputChannels: 1, maxOutputChannels: 2, defaultInputChannels: 1,
                defaultOutputChannels: 2, inputLatency: 0.0010, outputLatency: 0.0010, inputGainSettable: true)
        case .bluetoothA2DPOutput:
            return PortHardware(sampleRates: common, maxOutputChannels: 2, defaultOutputChannels: 2, outputLatency: 0.150)
        case .bluetoothHFP:
            return PortHardware(
                sampleRates: [8000, 16000], maxInputChannels: 1, maxOutputChannels: 1, defaultInputChannels: 1,
                defaultOutputChannels: 1, inputLatency: 0.030, outputLatency: 0.030)
        case .usbAudio:
            return PortHardware(
                sampleRates: [44100, 48000, 96000], maxInputChannels: 2, maxOutputChannels: 8, defaultInputChannels: 1,
                defaultOutputChannels: 2, inputLatency: 0.002, outputLatency: 0.002, inputGainSettable: true)
        case .hdmiOutput:
            return PortHardware(sampleRates: [48000], maxOutputChannels: 8, defaultOutputChannels: 2, outputLatency: 0.020)
        case .lineOut, .lineIn, .carAudio:
            return PortHardware(
                sampleRates: common, maxInputChannels: 2, maxOutputChannels: 2, defaultInputChannels: 1,
                defaultOutputChannels: 2, inputLatency: 0.002, outputLatency: 0.002, inputGainSettable: type != .lineOut)
        case .airPlay:
            return PortHardware(sampleRates: common, maxOutputChannels: 2, defaultOutputChannels: 2, outputLatency: 2.0)
        }
    }
}

/// HW1, HW2: the device's sample rate and IO buffer for a route and preferences.
enum HardwareConfiguration {
    /// HW1: the preferred rate if every port supports it, else the nearest supported (ties:
    /// higher); no preference: 48000 if supported, else the highest supported.
    static func sampleRate(route: Route, profile: DeviceProfile, preferred: Double?) -> Double {
        let supported = supportedRates(route, profile)  // nil: every rate
        if let preferred {
            guard let supported, !supported.contains(preferred) else { return preferred }
            return supported.min { a, b in
                let (da, db) = (abs(a - preferred), abs(b - preferred))
                return da < db || (da == db && a > b)
            }!
        }
        guard let supported, !supported.contains(48000) else { return 48000 }
        return supported.max()!
    }

    /// "Supported" = by every port of the route; if no rate is common, by its first output
    /// port; an empty route supports every rate (`nil`).
    private static func supportedRates(_ route: Route, _ profile: DeviceProfile) -> [Double]? {
        let ports = route.inputs + route.outputs
        guard let first = ports.first else { return nil }
        var common = rates(of: first, profile)
        for port in ports.dropFirst() {
            let portRates = rates(of: port, profile)
            common = common.filter(portRates.contains)
        }
        if !common.isEmpty { return common }
        let reference = route.outputs.first ?? first
        return rates(of: reference, profile)
    }

    /// A port's rates: the one its device runs at when the device said (a sound server's sink),
    /// else its type's.
    private static func rates(of port: Port, _ profile: DeviceProfile) -> [Double] {
        port.sampleRate.map { [$0] } ?? PortHardware.of(port.type, on: profile).sampleRates
    }

    /// HW2: frames = the power of two nearest to duration × rate (ties: larger), clamped to
    /// 256…4096, default 1024; the buffer duration is frames / rate.
    static func ioBufferDuration(sampleRate: Double, preferred: Double?) -> Double {
        guard let preferred else { return 1024 / sampleRate }
        let target = preferred * sampleRate
        var frames = 256.0
        while frames < 4096, abs(frames * 2 - target) <= abs(frames - target) { frames *= 2 }
        return frames / sampleRate
    }
}
