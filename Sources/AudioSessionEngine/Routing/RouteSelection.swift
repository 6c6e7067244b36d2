import AudioSessionModel

/// Route selection: why audio goes where it goes (SPEC §9.2–9.3).
///
/// Pure functions of a session's configuration and the connected ports, which are listed in
/// connection order (built-ins first), so "most recently connected" is "last in the list".
enum RouteSelection {
    /// RT1–RT8: the route a configuration chooses by itself.
    static func route(for config: RoutingConfig, on table: PortTable) -> RouteKey {
        let category = config.category
        // RT1: audioProcessing has no inputs and no outputs.
        guard category != .audioProcessing else { return .none }
        let slots = table.slots
        var key = RouteKey()
        if category.hasInput { key.inputs = input(for: config, on: slots) }
        if category.hasOutput {
            key.outputs = outputs(for: config, input: key.inputs, on: slots, outputChoice: table.outputChoiceSlot)
        }
        return key
    }

    /// RT4 (and RT6 for multiRoute): the preferred input if connected and available (RT8), else
    /// the most recently connected candidate input, else the built-in microphone, else none.
    /// RT7: with the speaker override, the built-in microphone, or RT4's choice without HFP.
    private static func input(for config: RoutingConfig, on slots: [PortSlot]) -> UInt64 {
        if config.overridesToSpeaker {
            if let builtIn = bit(of: .microphoneBuiltIn, input: true, on: slots) { return builtIn }
            var withoutBluetooth = config
            withoutBluetooth.options.remove(.allowBluetooth)
            withoutBluetooth.overridesToSpeaker = false
            return input(for: withoutBluetooth, on: slots)
        }
        if let preferred = config.preferredInput,
            let index = slots.lastIndex(where: { $0.isInput && $0.accessory == preferred && isAvailableInput($0, config) })
        {
            return 1 << UInt64(index)
        }
        if let index = slots.lastIndex(where: { $0.isInput && isInputCandidate($0.type, config) }) {
            return 1 << UInt64(index)
        }
        return bit(of: .microphoneBuiltIn, input: true, on: slots) ?? 0
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

    /// RT4: `availableInputs` holds the built-in microphone and the candidate inputs.
    static func isAvailableInput(_ slot: PortSlot, _ config: RoutingConfig) -> Bool {
        config.category.hasInput && slot.isInput && (slot.type == .microphoneBuiltIn || isInputCandidate(slot.type, config))
    }

    /// RT2, RT3, RT5, RT6, RT7, RT13: the output ports.
    private static func outputs(
        for config: RoutingConfig, input: UInt64, on slots: [PortSlot], outputChoice: Int?
    ) -> UInt64 {
        // RT7: the speaker override.
        if config.overridesToSpeaker, let speaker = bit(of: .speaker, input: false, on: slots) { return speaker }
        if config.category == .multiRoute {
            // RT6: every connected USB, line-out, headphones and HDMI output, else the speaker.
            var bits: UInt64 = 0
            for (index, slot) in slots.enumerated() where !slot.isInput && isMultiRouteOutput(slot.type) {
                bits |= 1 << UInt64(index)
            }
            return bits != 0 ? bits : bit(of: .speaker, input: false, on: slots) ?? 0
        }
        // RT5: a playAndRecord route uses HFP in both directions or in neither.
        if input != 0, slots[input.trailingZeroBitCount].type == .bluetoothHFP {
            let device = slots[input.trailingZeroBitCount].accessory
            if let output = slots.lastIndex(where: { !$0.isInput && $0.type == .bluetoothHFP && $0.accessory == device }) {
                return 1 << UInt64(output)
            }
        }
        // RT13 (b): the output the user chose for this app, then (a) the device-wide choice (a
        // server's default output), each where this configuration may use it.
        if let chosen = config.chosenOutput, let index = slots.lastIndex(of: chosen), isChoosableOutput(chosen.type, config) {
            return 1 << UInt64(index)
        }
        if let index = outputChoice, isChoosableOutput(slots[index].type, config) { return 1 << UInt64(index) }
        // RT3: last in wins among the eligible accessory outputs.
        if let index = slots.lastIndex(where: { !$0.isInput && isEligibleOutput($0.type, config) }) {
            return 1 << UInt64(index)
        }
        if config.category == .playAndRecord, !config.options.contains(.defaultToSpeaker),
            let receiver = bit(of: .receiver, input: false, on: slots)
        {
            return receiver
        }
        return bit(of: .speaker, input: false, on: slots) ?? 0
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

    /// RT13: an output the user's choice may give a (non-multiRoute) configuration: the built-in
    /// speaker or an output RT2 makes eligible (never the receiver, nor hands-free on its own, RT5).
    static func isChoosableOutput(_ type: PortType, _ config: RoutingConfig) -> Bool {
        guard config.category.hasOutput, config.category != .multiRoute else { return false }
        return type == .speaker || isEligibleOutput(type, config)
    }

    /// RT10: what a session that is not the routing owner shows. Outputs (when its category has
    /// output) are the owner's if it has any, else its own; the input likewise.
    static func shown(own: RouteKey, category: Category, owner: RouteKey) -> RouteKey {
        RouteKey(
            inputs: category.hasInput ? (owner.inputs != 0 ? owner.inputs : own.inputs) : 0,
            outputs: category.hasOutput ? (owner.outputs != 0 ? owner.outputs : own.outputs) : 0
        )
    }

    private static func bit(of type: PortType, input: Bool, on slots: [PortSlot]) -> UInt64? {
        guard let index = slots.lastIndex(where: { $0.type == type && $0.isInput == input }) else { return nil }
        return 1 << UInt64(index)
    }
}
