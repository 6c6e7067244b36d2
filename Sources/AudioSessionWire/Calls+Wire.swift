import AudioSessionModel

// App calls and system events in wire form: a tag byte, then the arguments.

extension WireWriter {
    mutating func write(_ call: AppCall) {
        switch call {
        case .setCategory(let category, let mode, let options):
            write(tag: CallTag.setCategory)
            write(category)
            write(mode)
            write(options)
        case .setMode(let mode):
            write(tag: CallTag.setMode)
            write(mode)
        case .setActive(let active, let options):
            write(tag: CallTag.setActive)
            write(active)
            write(options.rawValue)
        case .startOutput: write(tag: CallTag.startOutput)
        case .stopOutput: write(tag: CallTag.stopOutput)
        case .startInput: write(tag: CallTag.startInput)
        case .stopInput: write(tag: CallTag.stopInput)
        case .setAppState(let state):
            write(tag: CallTag.setAppState)
            write(state == .background)
        case .requestRecordPermission: write(tag: CallTag.requestRecordPermission)
        case .overrideOutput(let port):
            write(tag: CallTag.overrideOutput)
            write(port.rawValue)
        case .setPreferredInput(let uid):
            write(tag: CallTag.setPreferredInput)
            write(uid) { $0.write($1) }
        case .setInputDataSource(let name):
            write(tag: CallTag.setInputDataSource)
            write(name)
        case .setPreferences(let preferences):
            write(tag: CallTag.setPreferences)
            write(preferences) { writer, preference in
                switch preference {
                case .sampleRate(let value):
                    writer.write(tag: PreferenceTag.sampleRate)
                    writer.write(value)
                case .ioBufferDuration(let value):
                    writer.write(tag: PreferenceTag.ioBufferDuration)
                    writer.write(value)
                case .inputChannels(let value):
                    writer.write(tag: PreferenceTag.inputChannels)
                    writer.write(value)
                case .outputChannels(let value):
                    writer.write(tag: PreferenceTag.outputChannels)
                    writer.write(value)
                }
            }
        case .setInputGain(let gain):
            write(tag: CallTag.setInputGain)
            write(gain)
        }
    }

    mutating func write(_ event: SystemEvent) {
        switch event {
        case .silentSwitch(let on):
            write(tag: SystemEventTag.silentSwitch)
            write(on)
        case .lock: write(tag: SystemEventTag.lock)
        case .unlock: write(tag: SystemEventTag.unlock)
        case .systemSession(let kind, let begin):
            write(tag: SystemEventTag.systemSession)
            write(kind)
            write(begin)
        case .microphoneMute(let on):
            write(tag: SystemEventTag.microphoneMute)
            write(on)
        case .outputVolume(let volume):
            write(tag: SystemEventTag.outputVolume)
            write(volume)
        case .plug(let kind, let uid, let sampleRate):
            write(tag: SystemEventTag.plug)
            write(kind)
            write(uid) { $0.write($1) }
            write(sampleRate) { $0.write($1) }  // version 10
        case .unplug(let uid):
            write(tag: SystemEventTag.unplug)
            write(uid)
        case .wake: write(tag: SystemEventTag.wake)
        case .outputChoice(let uid):
            write(tag: SystemEventTag.outputChoice)
            write(uid) { $0.write($1) }
        case .appOutputChoice(let app, let uid):
            write(tag: SystemEventTag.appOutputChoice)
            write(app)
            write(uid) { $0.write($1) }
        case .mediaServicesReset: write(tag: SystemEventTag.mediaServicesReset)
        case .mediaServicesLost: write(tag: SystemEventTag.mediaServicesLost)
        case .inputGain(let uid, let gain):
            write(tag: SystemEventTag.inputGain)
            write(uid)
            write(gain)
        case .otherAudioStarted(let audio):
            write(tag: SystemEventTag.otherAudioStarted)
            write(audio)
        case .otherAudioStopped(let id):
            write(tag: SystemEventTag.otherAudioStopped)
            write(id)
        }
    }

    mutating func write(_ audio: OtherAudio) {
        write(audio.id)
        write(audio.name)
        write(audio.role) { $0.write($1) }
        write(audio.uid) { $0.write($1) }
    }
}

extension WireReader {
    mutating func readCall() throws(WireError) -> AppCall {
        switch try readTag("app call", as: CallTag.self) {
        case .setCategory: return .setCategory(try readCategory(), mode: try readMode(), options: try readOptions())
        case .setMode: return .setMode(try readMode())
        case .setActive:
            return .setActive(try readBool("active"), options: SetActiveOptions(rawValue: try readUInt32("set-active options")))
        case .startOutput: return .startOutput
        case .stopOutput: return .stopOutput
        case .startInput: return .startInput
        case .stopInput: return .stopInput
        case .setAppState: return .setAppState(try readBool("background") ? .background : .foreground)
        case .requestRecordPermission: return .requestRecordPermission
        case .overrideOutput:
            return .overrideOutput(try Self.readRaw("port override", PortOverride.init(rawValue:), readUInt32("port override")))
        case .setPreferredInput:
            return .setPreferredInput(
                try readOptional("preferred input") { r throws(WireError) in try r.readString("preferred input") })
        case .setInputDataSource: return .setInputDataSource(try readString("data source"))
        case .setPreferences:
            return .setPreferences(try readArray("preferences") { r throws(WireError) in try r.readPreference() })
        case .setInputGain: return .setInputGain(try readDouble("input gain"))
        }
    }

    private mutating func readPreference() throws(WireError) -> HardwarePreference {
        switch try readTag("preference", as: PreferenceTag.self) {
        case .sampleRate: return .sampleRate(try readDouble("sample rate"))
        case .ioBufferDuration: return .ioBufferDuration(try readDouble("IO buffer duration"))
        case .inputChannels: return .inputChannels(try readInt("input channels"))
        case .outputChannels: return .outputChannels(try readInt("output channels"))
        }
    }

    mutating func readSystemEvent() throws(WireError) -> SystemEvent {
        switch try readTag("system event", as: SystemEventTag.self) {
        case .silentSwitch: return .silentSwitch(on: try readBool("silent switch"))
        case .lock: return .lock
        case .unlock: return .unlock
        case .systemSession: return .systemSession(try readSystemSessionKind(), begin: try readBool("begin"))
        case .microphoneMute: return .microphoneMute(on: try readBool("microphone mute"))
        case .outputVolume: return .outputVolume(try readDouble("output volume"))
        case .plug:
            let kind = try readCase("accessory kind", of: AccessoryKind.allCases)
            let uid = try readOptional("uid") { r throws(WireError) in try r.readString("uid") }
            let sampleRate = try readOptional("sample rate") { r throws(WireError) in try r.readDouble("sample rate") }
            return .plug(kind, uid: uid, sampleRate: sampleRate)
        case .unplug: return .unplug(uid: try readString("uid"))
        case .wake: return .wake
        case .outputChoice:
            return .outputChoice(uid: try readOptional("output choice") { r throws(WireError) in try r.readString("uid") })
        case .appOutputChoice:
            let app = try readAppID("app")
            return .appOutputChoice(
                app, uid: try readOptional("output choice") { r throws(WireError) in try r.readString("uid") })
        case .mediaServicesReset: return .mediaServicesReset
        case .mediaServicesLost: return .mediaServicesLost
        case .inputGain: return .inputGain(uid: try readString("uid"), try readDouble("input gain"))
        case .otherAudioStarted: return .otherAudioStarted(try readOtherAudio())
        case .otherAudioStopped: return .otherAudioStopped(id: try readString("other-audio id"))
        }
    }

    mutating func readOtherAudio() throws(WireError) -> OtherAudio {
        OtherAudio(
            id: try readString("other-audio id"), name: try readString("other-audio name"),
            role: try readOptional("other-audio role") { r throws(WireError) in try r.readString("other-audio role") },
            uid: try readOptional("other-audio uid") { r throws(WireError) in try r.readUInt32("other-audio uid") })
    }
}
