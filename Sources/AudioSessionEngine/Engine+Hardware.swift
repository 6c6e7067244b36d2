import AudioSessionModel

/// Hardware configuration (SPEC §10, HW1–HW6).
extension Engine {
    /// HW1: the device route and the preferences that decide the sample rate and IO buffer:
    /// the owner's route and preferences, or, without an owner, the session's own route and none.
    private func deviceConfiguration(for index: Int) -> (route: Route, preferences: HardwarePreferences) {
        guard let owner = routingOwner else { return (currentRoute(index), HardwarePreferences()) }
        return (currentRoute(owner), sessions[owner].preferences)
    }

    /// HW1: the device sample rate as the session reads it.
    func sampleRate(for index: Int) -> Double {
        let (route, preferences) = deviceConfiguration(for: index)
        return HardwareConfiguration.sampleRate(route: route, profile: device.profile, preferred: preferences.sampleRate)
    }

    /// HW2: the IO buffer duration as the session reads it.
    func ioBufferDuration(for index: Int) -> Double {
        let preferred = deviceConfiguration(for: index).preferences.ioBufferDuration
        return HardwareConfiguration.ioBufferDuration(sampleRate: sampleRate(for: index), preferred: preferred)
    }

    /// The channel counts and latency of one direction of the session's current route (HW4, HW5).
    struct DirectionHardware: Hashable, Sendable {
        var channels: Int
        var maxChannels: Int
        var latency: Double
    }

    /// HW4, HW5: `!cat` in a category without that direction; zeros without a port there.
    /// Several outputs (multiRoute): counts and maxima summed, latency the largest, and an
    /// output preference caps the summed count.
    func hardware(for index: Int, input: Bool) -> Result<DirectionHardware, SessionError> {
        let session = sessions[index]
        guard input ? session.category.hasInput : session.category.hasOutput else {
            return .failure(
                SessionError(
                    .incompatibleCategory, "HW5: category \(session.category) has no \(input ? "input" : "output")"))
        }
        let route = currentRoute(index)
        var result = DirectionHardware(channels: 0, maxChannels: 0, latency: 0)
        for port in input ? route.inputs : route.outputs {
            let hardware = PortHardware.of(port.type, on: device.profile)
            result.channels += input ? hardware.defaultInputChannels : hardware.defaultOutputChannels
            result.maxChannels += input ? hardware.maxInputChannels : hardware.maxOutputChannels
            result.latency = max(result.latency, input ? hardware.inputLatency : hardware.outputLatency)
        }
        if let preferred = input ? session.preferences.inputChannels : session.preferences.outputChannels,
            result.maxChannels > 0
        {
            result.channels = min(preferred, result.maxChannels)
        }
        return .success(result)
    }

    /// HW3, HW4: preferences, applied in the order written; the first failure fails the whole
    /// step and nothing changes (A7).
    mutating func setPreferences(_ index: Int, _ changes: [HardwarePreference]) throws(SessionError) {
        var preferences = sessions[index].preferences
        for change in changes {
            switch change {
            case .sampleRate(let rate):
                guard rate >= 8000, rate <= 192_000 else {
                    throw SessionError(.badParam, "HW3: the preferred sample rate must be within 8000…192000, not \(rate)")
                }
                preferences.sampleRate = rate
            case .ioBufferDuration(let duration):
                guard duration > 0, duration <= 1 else {
                    throw SessionError(.badParam, "HW3: the preferred IO buffer duration must be within 0…1 s, not \(duration)")
                }
                preferences.ioBufferDuration = duration
            case .inputChannels(let count):
                try checkChannelPreference(index, count, input: true)
                preferences.inputChannels = count
            case .outputChannels(let count):
                try checkChannelPreference(index, count, input: false)
                preferences.outputChannels = count
            }
        }
        sessions[index].preferences = preferences
    }

    /// HW4: `!cat` without the direction; n < 1 → -50; no port there → `!res`; n > maximum → -50.
    private func checkChannelPreference(_ index: Int, _ count: Int, input: Bool) throws(SessionError) {
        let direction = input ? "input" : "output"
        let hardware = try hardware(for: index, input: input).get()
        guard count >= 1 else { throw SessionError(.badParam, "HW4: the \(direction) channel count must be at least 1") }
        if input, hardware.maxChannels == 0 {
            throw SessionError(.resourceNotAvailable, "HW4: the session's route has no input")
        }
        guard count <= hardware.maxChannels else {
            throw SessionError(
                .badParam, "HW4: the route has at most \(hardware.maxChannels) \(direction) channels, not \(count)")
        }
    }

    /// HW6: the current input's gain (device state, per input port), 0 without an input.
    func inputGain(for index: Int) -> (gain: Double, settable: Bool) {
        guard let port = currentRoute(index).inputs.first else { return (0, false) }
        return (device.inputGains[port.uid] ?? 1, PortHardware.of(port.type, on: device.profile).inputGainSettable)
    }

    /// HW6: `setInputGain(g)`: g outside 0…1 → -50 first; no input, or one whose gain cannot be
    /// set → `!res`.
    mutating func setInputGain(_ index: Int, _ gain: Double) throws(SessionError) {
        guard gain >= 0, gain <= 1 else { throw SessionError(.badParam, "HW6: the input gain must be within 0…1, not \(gain)") }
        guard let port = currentRoute(index).inputs.first else {
            throw SessionError(.resourceNotAvailable, "HW6: the session has no input")
        }
        guard PortHardware.of(port.type, on: device.profile).inputGainSettable else {
            throw SessionError(.resourceNotAvailable, "HW6: the gain of \(port.type) cannot be set")
        }
        device.inputGains[port.uid] = gain
    }

    /// HW6 from the device's side (beyond SPEC): the gain of a connected input port, whether or
    /// not apps may set it — the device reports what its control says. 0…1, else -50; a UID
    /// that is no connected input → -50 naming the inputs.
    mutating func setDeviceInputGain(_ uid: String, _ gain: Double) throws(SessionError) {
        guard gain >= 0, gain <= 1 else { throw SessionError(.badParam, "HW6: the input gain must be within 0…1, not \(gain)") }
        let inputs = device.ports.ports.filter(\.isInput).map(\.port.uid)
        guard inputs.contains(uid) else {
            throw SessionError(
                .badParam,
                "HW6: no input port with UID \(uid) (inputs: \(inputs.isEmpty ? "none" : inputs.joined(separator: ", ")))")
        }
        device.inputGains[uid] = gain
    }

    /// HW6: every connected input port's gain (1 unless set), by UID.
    public var inputGains: [String: Double] {
        Dictionary(device.ports.ports.filter(\.isInput).map { ($0.port.uid, device.inputGains[$0.port.uid] ?? 1) }) { first, _ in
            first
        }
    }
}
