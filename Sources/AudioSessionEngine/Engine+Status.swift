import AudioSessionModel

/// What apps and the device show: each session's status and the device's (SPEC §13).
extension Engine {
    /// The session of an app as the app sees it, or `nil` for an app not registered.
    public func status(of app: AppID) -> SessionStatus? {
        guard let index = indexByApp[app] else { return nil }
        let session = sessions[index]
        let playing = playingInputs()
        let input = hardware(for: index, input: true)
        let output = hardware(for: index, input: false)
        let gain = inputGain(for: index)
        var status = SessionStatus(
            app: app,
            category: session.category,
            mode: session.mode,
            categoryOptions: session.options,
            isActive: session.isActive,
            appState: appState(of: session),
            isOutputRunning: session.outputRunning,
            isInputRunning: session.inputRunning,
            isInterrupted: session.interruptedBy != nil,
            currentRoute: currentRoute(index),
            availableInputs: availableInputs(for: session.routingConfig),
            preferredInput: session.preferredInput.flatMap { device.ports.inputUID(ofAccessory: $0) },
            overridesToSpeaker: session.overridesToSpeaker,
            outputGain: outputGain(index, gainInputs()),
            recordsSilence: recordsSilence(index),
            isOtherAudioPlaying: isOtherAudioPlaying(index, playing),
            secondaryAudioShouldBeSilencedHint: secondaryAudioShouldBeSilenced(index, playing),
            recordPermission: device.recordPermission(of: app),
            isInputAvailable: device.isInputAvailable,
            outputVolume: device.outputVolume,
            isHardwareCodecAvailable: session.hardwareCodecAvailable,
            preferences: session.preferences,
            sampleRate: sampleRate(for: index),
            ioBufferDuration: ioBufferDuration(for: index),
            inputChannels: input.map(\.channels),
            maximumInputChannels: input.map(\.maxChannels),
            inputLatency: input.map(\.latency),
            outputChannels: output.map(\.channels),
            maximumOutputChannels: output.map(\.maxChannels),
            outputLatency: output.map(\.latency),
            inputGain: gain.gain,
            isInputGainSettable: gain.settable
        )
        // SO6 (decision): a system sound is silent with the silent switch on and during a system call.
        status.systemSoundsSilenced = device.silentSwitchOn || systemSessions.contains(.call)
        return status
    }
}

extension Engine {
    /// The device's state, ports and routing owner.
    /// HW6, HW7: what a backend writes to the server's devices after a step — the routing owner,
    /// the output volume and the input ports — without building the whole `deviceStatus`.
    public var deviceLevels: (routingOwner: AppID?, outputVolume: Double, inputs: [Port]) {
        (routingOwner.map { appIDs[$0] }, device.outputVolume, device.ports.ports.filter(\.isInput).map(\.port))
    }

    public var deviceStatus: DeviceStatus {
        DeviceStatus(
            profile: device.profile,
            inputs: device.ports.ports.filter(\.isInput).map(\.port),
            outputs: device.ports.ports.filter { !$0.isInput }.map(\.port),
            routingOwner: routingOwner.map { appIDs[$0] },
            route: routingOwner.map { currentRoute($0) } ?? Route(),
            activeApps: activeApps,
            systemSessions: systemSessions,
            outputVolume: device.outputVolume,
            isLocked: device.isLocked,
            silentSwitchOn: device.silentSwitchOn,
            microphoneMuted: device.microphoneMuted,
            duckLevel: duckLevel,
            otherAudio: otherAudioStatus, outputChoice: device.ports.outputChoice
        )
    }
}
