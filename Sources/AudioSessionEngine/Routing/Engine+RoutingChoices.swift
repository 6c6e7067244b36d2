import AudioSessionModel

/// The app's own routing choices: the speaker override (RT7) and the preferred input (RT8).
extension Engine {
    /// RT7: `overrideOutputAudioPort`. Speaker is for playAndRecord only; `none` is accepted
    /// anywhere and changes nothing where no override is set.
    mutating func overrideOutput(_ index: Int, _ port: PortOverride, _ context: inout StepContext) throws(SessionError) {
        let session = sessions[index]
        if port == .speaker, session.category != .playAndRecord {
            throw SessionError(.badParam, "RT7: the speaker override needs playAndRecord, not \(session.category)")
        }
        let overrides = port == .speaker
        guard session.overridesToSpeaker != overrides else { return }
        context.cause = .ownChoice(index)
        reconfigure(index, &context) { $0.overridesToSpeaker = overrides }
    }

    /// RT8: `setPreferredInput(UID)`; the port must be in availableInputs; `nil` clears.
    mutating func setPreferredInput(_ index: Int, _ uid: String?, _ context: inout StepContext) throws(SessionError) {
        var accessory: UInt32?
        if let uid {
            let config = sessions[index].routingConfig
            let slots = device.ports.slots
            guard
                let match = slots.indices.first(where: {
                    device.ports[$0].port.uid == uid && RouteSelection.isAvailableInput(slots[$0], config)
                })
            else {
                let available = availableInputs(for: config)
                let list = available.isEmpty ? "none" : available.map(\.uid).joined(separator: ", ")
                throw SessionError(.badParam, "RT8: \(uid) is not an available input (available: \(list))")
            }
            accessory = slots[match].accessory
        }
        guard sessions[index].preferredInput != accessory else { return }
        context.cause = .ownChoice(index)
        reconfigure(index, &context) { $0.preferredInput = accessory }
    }

    /// RT4: the inputs a configuration may choose: built-in first, then accessories in connection
    /// order; empty for categories without input.
    func availableInputs(for config: RoutingConfig) -> [Port] {
        let slots = device.ports.slots
        let available = slots.indices.filter { RouteSelection.isAvailableInput(slots[$0], config) }
        let builtIn = available.filter { slots[$0].type == .microphoneBuiltIn }
        let accessories = available.filter { slots[$0].type != .microphoneBuiltIn }
        return (builtIn + accessories).map { device.ports[$0].port }
    }

    /// RT8: whether the session's preferred input is still available.
    func isPreferredInputAvailable(_ index: Int) -> Bool {
        guard let preferred = sessions[index].preferredInput else { return true }
        let config = sessions[index].routingConfig
        return device.ports.slots.contains { $0.accessory == preferred && RouteSelection.isAvailableInput($0, config) }
    }

    /// RT7: a plug or unplug ends every override ("only until the current route changes").
    mutating func endOverridesOnDeviceChange(_ context: inout StepContext) {
        for index in sessionsWithRoutingChoice where sessions[index].overridesToSpeaker {
            reconfigure(index, &context) { $0.overridesToSpeaker = false }
        }
    }

    /// RT8 (revision 3, as iOS does): a plugged accessory whose input the session may use
    /// clears the session's preferred input — last in wins: whoever plugs a microphone in wants
    /// it. A plug that brings no input the session may use (headphones; hands-free without
    /// allowBluetooth) keeps the preference. Nothing restores a cleared one.
    mutating func clearPreferencesForPluggedInput(_ accessory: UInt32, _ context: inout StepContext) {
        for index in sessionsWithRoutingChoice where sessions[index].preferredInput != nil {
            let config = sessions[index].routingConfig
            let bringsInput = device.ports.slots.contains {
                $0.accessory == accessory && RouteSelection.isAvailableInput($0, config)
            }
            if bringsInput { reconfigure(index, &context) { $0.preferredInput = nil } }
        }
    }

    /// After the step: RT7 ends the overrides of every session but a new routing owner, RT8
    /// drops preferences whose port is no longer available and RT13 chosen outputs that are gone
    /// or no longer eligible. None is restored later.
    mutating func endStaleRoutingChoices(_ context: inout StepContext) {
        guard !sessionsWithRoutingChoice.isEmpty else { return }
        let owner = routingOwner
        let ownerChanged = owner != nil && owner != context.ownerBefore
        for index in sessionsWithRoutingChoice {
            let session = sessions[index]
            if ownerChanged, session.overridesToSpeaker, index != owner {
                reconfigure(index, &context) { $0.overridesToSpeaker = false }
            }
            if session.preferredInput != nil, !isPreferredInputAvailable(index) {
                reconfigure(index, &context) { $0.preferredInput = nil }
            }
            // RT13 (b): a chosen output gone away or no longer eligible (a record-only category).
            if session.chosenOutput != nil, !isChosenOutputUsable(index) {
                reconfigure(index, &context) { $0.chosenOutput = nil }
            }
        }
    }

    /// RT12: selects a data source of the session's current input, device-wide. Every session
    /// whose route includes that port is told routeConfigurationChange; the current one sends nothing.
    mutating func setInputDataSource(_ index: Int, _ name: String, _ context: inout StepContext) throws(SessionError) {
        let route = currentRouteKey(index)
        guard route.inputs != 0 else {
            throw SessionError(.badParam, "RT12: the session has no input, so no data source to select")
        }
        let portIndex = route.inputs.trailingZeroBitCount
        let port = device.ports[portIndex].port
        guard port.dataSources.contains(name) else {
            let list = port.dataSources.isEmpty ? "none" : port.dataSources.joined(separator: ", ")
            throw SessionError(.badParam, "RT12: \(port.type) has no data source \(name) (data sources: \(list))")
        }
        guard port.selectedDataSource != name else { return }
        context.deviceChanged(from: device.ports, cause: .dataSource)
        device.ports.replacePort(at: portIndex, with: port.selecting(name))
    }
}

extension Port {
    func selecting(_ dataSource: String) -> Port {
        var copy = self
        copy.selectedDataSource = dataSource
        return copy
    }
}
