import AudioSessionModel

// Session status and the device snapshot in wire form: fields in declaration order.

extension WireWriter {
    mutating func write(_ s: SessionStatus) {
        write(s.app)
        write(s.category)
        write(s.mode)
        write(s.categoryOptions)
        write(s.isActive)
        write(s.appState == .background)
        write(s.isOutputRunning)
        write(s.isInputRunning)
        write(s.isInterrupted)
        write(s.currentRoute)
        write(s.availableInputs) { $0.write($1) }
        write(s.preferredInput) { $0.write($1) }
        write(s.overridesToSpeaker)
        write(s.outputGain)
        write(s.recordsSilence)
        write(s.isOtherAudioPlaying)
        write(s.secondaryAudioShouldBeSilencedHint)
        write(s.recordPermission.rawValue)
        write(s.isInputAvailable)
        write(s.outputVolume)
        write(s.isHardwareCodecAvailable)
        write(s.preferences)
        write(s.sampleRate)
        write(s.ioBufferDuration)
        write(s.inputChannels) { $0.write($1) }
        write(s.maximumInputChannels) { $0.write($1) }
        write(s.inputLatency) { $0.write($1) }
        write(s.outputChannels) { $0.write($1) }
        write(s.maximumOutputChannels) { $0.write($1) }
        write(s.outputLatency) { $0.write($1) }
        write(s.inputGain)
        write(s.isInputGainSettable)
    }

    mutating func write(_ d: DeviceStatus) {
        write(d.profile)
        write(d.inputs) { $0.write($1) }
        write(d.outputs) { $0.write($1) }
        write(d.routingOwner) { $0.write($1) }
        write(d.activeApps) { $0.write($1) }
        write(d.systemSessions) { $0.write($1) }
        write(d.outputVolume)
        write(d.isLocked)
        write(d.silentSwitchOn)
        write(d.microphoneMuted)
        write(d.duckLevel)
        write(d.otherAudio) { writer, stream in
            writer.write(stream.audio)
            writer.write(stream.gain)
            writer.write(stream.isMuted)
        }
    }

    mutating func write(_ a: AppSnapshot) {
        write(a.app)
        write(a.pid)
        write(a.uid)
        write(a.category)
        write(a.mode)
        write(a.options)
        write(a.isActive)
        write(a.isInterrupted)
        write(a.isOutputRunning)
        write(a.isInputRunning)
        write(a.outputGain)
        write(a.route)
    }
}

extension WireReader {
    mutating func readStatus() throws(WireError) -> SessionStatus {
        let int: (inout WireReader) throws(WireError) -> Int = { r throws(WireError) in try r.readInt("channels") }
        let double: (inout WireReader) throws(WireError) -> Double = { r throws(WireError) in try r.readDouble("latency") }
        return SessionStatus(
            app: try readAppID("app"),
            category: try readCategory(),
            mode: try readMode(),
            categoryOptions: try readOptions(),
            isActive: try readBool("active"),
            appState: try readBool("background") ? .background : .foreground,
            isOutputRunning: try readBool("output running"),
            isInputRunning: try readBool("input running"),
            isInterrupted: try readBool("interrupted"),
            currentRoute: try readRoute(),
            availableInputs: try readArray("available inputs") { r throws(WireError) in try r.readPort() },
            preferredInput: try readOptional("preferred input") { r throws(WireError) in try r.readString("preferred input") },
            overridesToSpeaker: try readBool("override"),
            outputGain: try readDouble("output gain"),
            recordsSilence: try readBool("records silence"),
            isOtherAudioPlaying: try readBool("other audio playing"),
            secondaryAudioShouldBeSilencedHint: try readBool("silence hint"),
            recordPermission: try Self.readRaw(
                "record permission", RecordPermission.init(rawValue:), readUInt32("record permission")),
            isInputAvailable: try readBool("input available"),
            outputVolume: try readDouble("output volume"),
            isHardwareCodecAvailable: try readBool("hardware codec"),
            preferences: try readPreferences(),
            sampleRate: try readDouble("sample rate"),
            ioBufferDuration: try readDouble("IO buffer duration"),
            inputChannels: try readResult("input channels", int),
            maximumInputChannels: try readResult("maximum input channels", int),
            inputLatency: try readResult("input latency", double),
            outputChannels: try readResult("output channels", int),
            maximumOutputChannels: try readResult("maximum output channels", int),
            outputLatency: try readResult("output latency", double),
            inputGain: try readDouble("input gain"),
            isInputGainSettable: try readBool("input gain settable")
        )
    }

    mutating func readDeviceStatus() throws(WireError) -> DeviceStatus {
        DeviceStatus(
            profile: try readProfile(),
            inputs: try readArray("inputs") { r throws(WireError) in try r.readPort() },
            outputs: try readArray("outputs") { r throws(WireError) in try r.readPort() },
            routingOwner: try readOptional("routing owner") { r throws(WireError) in try r.readAppID("routing owner") },
            activeApps: try readArray("active apps") { r throws(WireError) in try r.readAppID("active app") },
            systemSessions: try readArray("system sessions") { r throws(WireError) in try r.readSystemSessionKind() },
            outputVolume: try readDouble("output volume"),
            isLocked: try readBool("locked"),
            silentSwitchOn: try readBool("silent switch"),
            microphoneMuted: try readBool("microphone muted"),
            duckLevel: try readDouble("duck level"),
            otherAudio: try readArray("other audio") { r throws(WireError) in
                OtherAudioStatus(
                    audio: try r.readOtherAudio(), gain: try r.readDouble("other-audio gain"),
                    isMuted: try r.readBool("other-audio muted"))
            }
        )
    }

    mutating func readAppSnapshot() throws(WireError) -> AppSnapshot {
        AppSnapshot(
            app: try readAppID("app"),
            pid: try readInt32("pid"),
            uid: try readUInt32("uid"),
            category: try readCategory(),
            mode: try readMode(),
            options: try readOptions(),
            isActive: try readBool("active"),
            isInterrupted: try readBool("interrupted"),
            isOutputRunning: try readBool("output running"),
            isInputRunning: try readBool("input running"),
            outputGain: try readDouble("output gain"),
            route: try readRoute()
        )
    }
}
