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
        if let uid {
            let available = availableInputs(for: sessions[index].routingConfig, on: device.ports)
            guard available.contains(where: { $0.uid == uid }) else {
                let list = available.isEmpty ? "none" : available.map(\.uid).joined(separator: ", ")
                throw SessionError(.badParam, "RT8: \(uid) is not an available input (available: \(list))")
            }
        }
        guard sessions[index].preferredInput != uid else { return }
        context.cause = .ownChoice(index)
        reconfigure(index, &context) { $0.preferredInput = uid }
    }

    /// RT4: the inputs a configuration may choose: built-in first, then accessories in connection
    /// order; empty for categories without input.
    func availableInputs(for config: RoutingConfig, on ports: [DevicePort]) -> [Port] {
        guard config.category.hasInput else { return [] }
        let builtIn = ports.filter { $0.isInput && $0.port.type == .microphoneBuiltIn }
        let accessories = ports.filter { $0.isInput && RouteSelection.isInputCandidate($0.port.type, config) }
        return (builtIn + accessories).map(\.port)
    }

    /// RT7: a plug or unplug ends every override ("only until the current route changes").
    mutating func endOverridesOnDeviceChange(_ context: inout StepContext) {
        for index in sessionsWithRoutingChoice where sessions[index].overridesToSpeaker {
            reconfigure(index, &context) { $0.overridesToSpeaker = false }
        }
    }

    /// After the step: RT7 ends the overrides of every session but a new routing owner, and RT8
    /// drops preferences whose port is no longer available. Neither is restored later.
    mutating func endStaleRoutingChoices(_ context: inout StepContext) {
        guard !sessionsWithRoutingChoice.isEmpty else { return }
        let owner = routingOwner
        let ownerChanged = owner != nil && owner != context.ownerBefore
        for index in sessionsWithRoutingChoice {
            let session = sessions[index]
            if ownerChanged, session.overridesToSpeaker, index != owner {
                reconfigure(index, &context) { $0.overridesToSpeaker = false }
            }
            if let uid = session.preferredInput,
                !availableInputs(for: sessions[index].routingConfig, on: device.ports).contains(where: { $0.uid == uid })
            {
                reconfigure(index, &context) { $0.preferredInput = nil }
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
        device.ports[portIndex] = DevicePort(port: port.selecting(name), isInput: true)
    }
}

extension Port {
    func selecting(_ dataSource: String) -> Port {
        var copy = self
        copy.selectedDataSource = dataSource
        return copy
    }
}
