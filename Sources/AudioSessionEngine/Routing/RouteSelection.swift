/// Route selection: why audio goes where it goes (SPEC §9.2–9.3).
///
/// Pure functions of a session's configuration and the connected ports. Today the device has
/// its built-in ports only; accessories, overrides and preferences arrive with routing (§9).
enum RouteSelection {
    /// RT1–RT4: the route a configuration chooses by itself.
    static func route(for config: RoutingConfig, on ports: [DevicePort]) -> RouteKey {
        let category = config.category
        // RT1: audioProcessing has no inputs and no outputs.
        guard category != .audioProcessing else { return .none }
        var key = RouteKey()
        if category.hasOutput { key.outputs = output(for: config, on: ports) }
        if category.hasInput { key.inputs = input(on: ports) }
        return key
    }

    /// RT3: with no accessory, playAndRecord gets the Receiver (Speaker with defaultToSpeaker
    /// or without a receiver); every other category gets the Speaker. RT6: multiRoute gets the
    /// Speaker when no other output is connected.
    private static func output(for config: RoutingConfig, on ports: [DevicePort]) -> UInt64 {
        if config.category == .playAndRecord, !config.options.contains(.defaultToSpeaker),
            let receiver = bit(of: .receiver, input: false, on: ports)
        {
            return receiver
        }
        return bit(of: .speaker, input: false, on: ports) ?? 0
    }

    /// RT4: the built-in microphone, or no input at all (kiosk).
    private static func input(on ports: [DevicePort]) -> UInt64 {
        bit(of: .microphoneBuiltIn, input: true, on: ports) ?? 0
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
}
