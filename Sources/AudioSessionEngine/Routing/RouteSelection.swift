/// Route selection: why audio goes where it goes (SPEC §9.2–9.3).
///
/// Pure functions of a session's configuration and the connected ports, which are listed in
/// connection order (built-ins first), so "most recently connected" is "last in the list".
enum RouteSelection {
    /// RT1–RT6: the route a configuration chooses by itself.
    static func route(for config: RoutingConfig, on ports: [DevicePort]) -> RouteKey {
        let category = config.category
        // RT1: audioProcessing has no inputs and no outputs.
        guard category != .audioProcessing else { return .none }
        var key = RouteKey()
        if category.hasInput { key.inputs = input(for: config, on: ports) }
        if category.hasOutput { key.outputs = outputs(for: config, input: key.inputs, on: ports) }
        return key
    }

    /// RT4 (and RT6 for multiRoute): the preferred input if connected and available (RT8), else
    /// the most recently connected candidate input, else the built-in microphone, else none.
    /// RT7: with the speaker override, the built-in microphone, or RT4's choice without HFP.
    private static func input(for config: RoutingConfig, on ports: [DevicePort]) -> UInt64 {
        if config.overridesToSpeaker {
            if let builtIn = bit(of: .microphoneBuiltIn, input: true, on: ports) { return builtIn }
            var withoutBluetooth = config
            withoutBluetooth.options.remove(.allowBluetooth)
            withoutBluetooth.overridesToSpeaker = false
            return input(for: withoutBluetooth, on: ports)
        }
        if let preferred = config.preferredInput,
            let index = ports.lastIndex(where: {
                $0.isInput && $0.port.uid == preferred
                    && ($0.port.type == .microphoneBuiltIn || isInputCandidate($0.port.type, config))
            })
        {
            return 1 << UInt64(index)
        }
        if let index = ports.lastIndex(where: { $0.isInput && isInputCandidate($0.port.type, config) }) {
            return 1 << UInt64(index)
        }
        return bit(of: .microphoneBuiltIn, input: true, on: ports) ?? 0
    }

    /// RT4, RT6: the accessory input types a configuration may record from.
    static func isInputCandidate(_ type: PortType, _ config: RoutingConfig) -> Bool {
        switch type.kind {
        case .usbAudio, .microphoneWired: true
        case .lineIn, .carAudio: config.category != .multiRoute
        case .bluetoothHFP: config.category != .multiRoute && config.options.contains(.allowBluetooth)
        default: false
        }
    }

    /// RT2, RT3, RT5, RT6: the output ports.
    private static func outputs(for config: RoutingConfig, input: UInt64, on ports: [DevicePort]) -> UInt64 {
        // RT7: the speaker override.
        if config.overridesToSpeaker, let speaker = bit(of: .speaker, input: false, on: ports) { return speaker }
        if config.category == .multiRoute {
            // RT6: every connected USB, line-out, headphones and HDMI output, else the speaker.
            var bits: UInt64 = 0
            for (index, port) in ports.enumerated() where !port.isInput && isMultiRouteOutput(port.port.type) {
                bits |= 1 << UInt64(index)
            }
            return bits != 0 ? bits : bit(of: .speaker, input: false, on: ports) ?? 0
        }
        // RT5: a playAndRecord route uses HFP in both directions or in neither.
        if input != 0, let inputIndex = index(of: input), ports[inputIndex].port.type == .bluetoothHFP,
            let output = ports.lastIndex(where: {
                !$0.isInput && $0.port.type == .bluetoothHFP && $0.port.uid == ports[inputIndex].port.uid
            })
        {
            return 1 << UInt64(output)
        }
        // RT3: last in wins among the eligible accessory outputs.
        if let index = ports.lastIndex(where: { !$0.isInput && isEligibleOutput($0.port.type, config) }) {
            return 1 << UInt64(index)
        }
        if config.category == .playAndRecord, !config.options.contains(.defaultToSpeaker),
            let receiver = bit(of: .receiver, input: false, on: ports)
        {
            return receiver
        }
        return bit(of: .speaker, input: false, on: ports) ?? 0
    }

    private static func isMultiRouteOutput(_ type: PortType) -> Bool {
        switch type.kind {
        case .usbAudio, .lineOut, .headphones, .hdmiOutput: true
        default: false
        }
    }

    /// RT2: accessory outputs a (non-multiRoute) configuration may choose. BluetoothHFP is
    /// chosen only together with an HFP input (RT5), never on its own.
    static func isEligibleOutput(_ type: PortType, _ config: RoutingConfig) -> Bool {
        let category = config.category
        switch type.kind {
        case .headphones, .lineOut, .usbAudio, .hdmiOutput, .carAudio:
            return true
        case .bluetoothA2DPOutput:
            return category == .playAndRecord ? config.options.contains(.allowBluetoothA2DP) : category != .record
        case .airPlay:
            if category == .ambient || category == .soloAmbient || category == .playback { return true }
            return category == .playAndRecord && config.options.contains(.allowAirPlay)
                && (config.mode == .default || config.mode == .videoChat || config.mode == .gameChat)
        default:
            return false
        }
    }

    /// RT10: what a session that is not the routing owner shows. Outputs (when its category has
    /// output) are the owner's if it has any, else its own; the input likewise.
    static func shown(own: RouteKey, category: Category, owner: RouteKey) -> RouteKey {
        RouteKey(
            inputs: category.hasInput ? (owner.inputs != 0 ? owner.inputs : own.inputs) : 0,
            outputs: category.hasOutput ? (owner.outputs != 0 ? owner.outputs : own.outputs) : 0
        )
    }

    private static func bit(of type: PortType, input: Bool, on ports: [DevicePort]) -> UInt64? {
        guard let index = ports.lastIndex(where: { $0.port.type == type && $0.isInput == input }) else {
            return nil
        }
        return 1 << UInt64(index)
    }

    private static func index(of bit: UInt64) -> Int? { bit == 0 ? nil : bit.trailingZeroBitCount }
}
