import AudioSessionModel

/// System events (SPEC §0, D2, D3, I4, I7, HW6 device side, HW7, RT11 wake, RT13, MS2).
extension Engine {
    mutating func perform(_ event: SystemEvent, _ context: inout StepContext) throws(SessionError) {
        switch event {
        case .silentSwitch(let on):
            // D2: only the iphone profile has a silent switch.
            guard device.profile.hasSilentSwitch else {
                throw SessionError(.badParam, "D2: the \(device.profile) profile has no silent switch")
            }
            device.silentSwitchOn = on
        case .lock: device.isLocked = true  // D3: no events; lock while locked changes nothing
        case .unlock: device.isLocked = false
        case .systemSession(let kind, begin: true):
            // I4: a begin of an active system session changes nothing.
            guard !systemSessions.contains(kind) else { return }
            systemSessions.append(kind)
            interruptAll(by: kind, &context)
        case .systemSession(let kind, begin: false):
            guard let position = systemSessions.firstIndex(of: kind) else { return }
            systemSessions.remove(at: position)
            // I3: the sessions a system session interrupted are told to resume.
            endInterruptions(by: .system(kind), shouldResume: { _ in true }, &context)
        case .microphoneMute(let on):
            // I7: repeating the current state changes nothing; unmute ends with shouldResume.
            guard device.microphoneMuted != on else { return }
            device.microphoneMuted = on
            if !on { endInterruptions(by: .microphoneMute, shouldResume: { _ in true }, &context) }
        case .outputVolume(let volume):
            try setOutputVolume(volume, &context)
        case .inputGain(let uid, let gain):
            try setDeviceInputGain(uid, gain)
        case .plug(let kind, let uid, let sampleRate):
            try plug(kind, uid: uid, sampleRate: sampleRate, &context)
        case .unplug(let uid):
            try unplug(uid: uid, &context)
        case .wake:
            context.wake = true
        case .outputChoice(let uid):
            try chooseOutput(uid: uid, &context)
        case .appOutputChoice(let app, let uid):
            try chooseOutput(for: app, uid: uid, &context)
        case .mediaServicesLost:
            // MS3: a second loss while lost changes nothing.
            guard !mediaServicesLost else { return }
            resetMediaServices(telling: [.mediaServicesLost], &context)
            mediaServicesLost = true
        case .mediaServicesReset:
            // MS2: after a loss (MS3) apps were told lost already; a simulated reset tells both.
            resetMediaServices(
                telling: mediaServicesLost ? [.mediaServicesReset] : [.mediaServicesLost, .mediaServicesReset], &context)
            mediaServicesLost = false
        case .otherAudioStarted(let audio):
            try startOtherAudio(audio)
        case .otherAudioStopped(let id):
            try stopOtherAudio(id: id, &context)
        }
    }

    /// HW7: the system output volume, delivered to every session when it changes.
    private mutating func setOutputVolume(_ volume: Double, _ context: inout StepContext) throws(SessionError) {
        guard volume >= 0, volume <= 1 else {
            throw SessionError(.badParam, "HW7: the output volume must be within 0…1, not \(volume)")
        }
        guard volume != device.outputVolume else { return }
        device.outputVolume = volume
        // Every app present (a free slot's id is empty).
        for app in appIDs where !app.rawValue.isEmpty { context.rest.append(.notify(app, .outputVolume(volume))) }
    }

    /// MS1, MS2, MS3: media services are lost and come back. Every app is told what happened
    /// (lost, reset, or both) and nothing else; sessions are back to C8 defaults. Device state,
    /// app states and active system sessions survive.
    private mutating func resetMediaServices(telling notifications: [SessionNotification], _ context: inout StepContext) {
        context.suppressDerived = true
        for index in sessions.indices {
            let session = sessions[index]
            guard !session.hasDeparted else { continue }  // a free slot stays free (T7)
            if session.ioRunning {
                context.requests.append(.stopIO(appIDs[index], output: session.outputRunning, input: session.inputRunning))
            }
            routeGroups.remove(index, session.routingConfig)
            sessions[index].resetForMediaServices()
            routeGroups.insert(index, sessions[index].routingConfig)
            for notification in notifications { context.rest.append(.notify(appIDs[index], notification)) }
        }
        activeSessions.removeAll()
        interruptedSessions.removeAll()
        sessionsWithRoutingChoice.removeAll()
    }
}
