import AudioSessionModel

/// Accessories plugged and unplugged (SPEC §9.1).
extension Engine {
    /// Route keys are bit sets over the port list (`RouteKey`), so a device has at most 64 ports.
    static let maximumPorts = 64

    /// §9.1: plugs an accessory. A reserved or connected UID fails with -50 and changes nothing.
    mutating func plug(
        _ kind: AccessoryKind, uid requested: String?, sampleRate: Double? = nil, _ context: inout StepContext
    ) throws(SessionError) {
        if let sampleRate, !(8000...192_000).contains(sampleRate) {
            throw SessionError(.badParam, "HW1: an accessory's sample rate is 8000…192000 Hz, not \(sampleRate)")
        }
        var counter = device.defaultUIDCounters[kind.name] ?? 0
        let uid: String
        if let requested {
            try Self.validate(uid: requested)
            guard !device.isConnected(requested) else {
                throw SessionError(.badParam, "§9.1: an accessory with UID \(requested) is already plugged")
            }
            uid = requested
        } else {
            // `<kind>-<n>`: never reused, never lowered, skipping UIDs that are connected.
            repeat { counter += 1 } while device.isConnected("\(kind.name)-\(counter)")
            uid = "\(kind.name)-\(counter)"
        }
        let ports = kind.ports(uid: uid, sampleRate: sampleRate)
        guard device.ports.count + ports.count <= Self.maximumPorts else {
            throw SessionError(.badParam, "§9.1: the device cannot hold more than \(Self.maximumPorts) ports")
        }
        context.deviceChanged(from: device.ports, cause: .plug)
        if requested == nil { device.defaultUIDCounters[kind.name] = counter }
        let accessory = device.nextAccessoryNumber
        device.ports.append(ports, accessory: accessory)
        device.nextAccessoryNumber += 1
        endOverridesOnDeviceChange(&context)
        clearPreferencesForPluggedInput(accessory, &context)
    }

    /// §9.1, I8: unplugs an accessory; a UID that is not plugged fails with -50.
    mutating func unplug(uid: String, _ context: inout StepContext) throws(SessionError) {
        guard !DeviceProfile.reservedUIDs.contains(uid), device.isConnected(uid) else {
            let plugged = device.ports.ports.map(\.port.uid).filter { !DeviceProfile.reservedUIDs.contains($0) }
            let list = plugged.isEmpty ? "none" : Array(Set(plugged)).sorted().joined(separator: ", ")
            throw SessionError(.badParam, "§9.1: no accessory with UID \(uid) is plugged (plugged: \(list))")
        }
        context.deviceChanged(from: device.ports, cause: .unplug)
        device.ports.removeAll(uid: uid)
        device.inputGains[uid] = nil  // HW6: forgotten on unplug
        endOverridesOnDeviceChange(&context)
    }

    /// UIDs match `[A-Za-z0-9._:-]+`; `none`, `-` and the built-in UIDs are reserved.
    static func validate(uid: String) throws(SessionError) {
        guard Port.isValidUID(uid) else {
            throw SessionError(.badParam, "§9.1: a UID is made of letters, digits and . _ : - (not \"\(uid)\")")
        }
        guard !DeviceProfile.reservedUIDs.contains(uid) else {
            throw SessionError(.badParam, "§9.1: the UID \(uid) is reserved")
        }
    }
}

extension DeviceProfile {
    /// §9.1: reserved on every profile.
    static let reservedUIDs: Set<String> = ["none", "-", "built-in-receiver", "built-in-speaker", "built-in-mic"]
}

extension Engine {
    /// §9.1 on a real device **(beyond SPEC, decision)**: whether the profile's built-in
    /// microphone exists. A sound server without an internal microphone (a desktop tower, a
    /// kiosk's board) has none to offer: the port leaves the device — a session recording from it
    /// hears its route change (RT11: noSuitableRouteForCategory with nothing else to record from,
    /// and its input stops, IO3) — and comes back (newDeviceAvailable) when the server has one.
    /// Not a step of the model: the backend says what the hardware is. Returns the effects, as a
    /// step's; nothing when it changes nothing (or the profile has no built-in microphone).
    @discardableResult
    public mutating func setBuiltInMicrophone(present: Bool) -> [Effect] {
        guard let microphone = device.profile.builtInPorts.first(where: { $0.type == .microphoneBuiltIn }),
            present != device.isConnected(microphone.uid)
        else { return [] }
        let owner = routingOwner
        var context = StepContext(ownerBefore: owner, ownerRouteBefore: ownRoute(owner))
        context.deviceChanged(from: device.ports, cause: present ? .plug : .unplug)
        if present {
            device.ports.insertBuiltIn(microphone)
        } else {
            device.ports.removeAll(uid: microphone.uid)
            device.inputGains[microphone.uid] = nil
        }
        endOverridesOnDeviceChange(&context)
        finishStep(&context)
        var effects = withoutNotificationsToDeparted(context.takeEffects())
        if mediaServicesLost { effects.removeAll(where: \.isToAnApp) }  // MS3: apps hear nothing while lost
        return effects
    }
}
