import AudioSessionModel

// App calls and system events in wire form: a tag byte, then the arguments.

extension WireWriter {
    mutating func write(_ call: AppCall) {
        switch call {
        case .setCategory(let category, let mode, let options):
            write(UInt8(0))
            write(category)
            write(mode)
            write(options)
        case .setMode(let mode):
            write(UInt8(1))
            write(mode)
        case .setActive(let active, let options):
            write(UInt8(2))
            write(active)
            write(options.rawValue)
        case .startOutput: write(UInt8(3))
        case .stopOutput: write(UInt8(4))
        case .startInput: write(UInt8(5))
        case .stopInput: write(UInt8(6))
        case .setAppState(let state):
            write(UInt8(7))
            write(state == .background)
        case .requestRecordPermission: write(UInt8(8))
        case .overrideOutput(let port):
            write(UInt8(9))
            write(port.rawValue)
        case .setPreferredInput(let uid):
            write(UInt8(10))
            write(uid) { $0.write($1) }
        case .setInputDataSource(let name):
            write(UInt8(11))
            write(name)
        case .setPreferences(let preferences):
            write(UInt8(12))
            write(preferences) { writer, preference in
                switch preference {
                case .sampleRate(let value):
                    writer.write(UInt8(0))
                    writer.write(value)
                case .ioBufferDuration(let value):
                    writer.write(UInt8(1))
                    writer.write(value)
                case .inputChannels(let value):
                    writer.write(UInt8(2))
                    writer.write(value)
                case .outputChannels(let value):
                    writer.write(UInt8(3))
                    writer.write(value)
                }
            }
        case .setInputGain(let gain):
            write(UInt8(13))
            write(gain)
        }
    }

    mutating func write(_ event: SystemEvent) {
        switch event {
        case .silentSwitch(let on):
            write(UInt8(0))
            write(on)
        case .lock: write(UInt8(1))
        case .unlock: write(UInt8(2))
        case .systemSession(let kind, let begin):
            write(UInt8(3))
            write(kind)
            write(begin)
        case .microphoneMute(let on):
            write(UInt8(4))
            write(on)
        case .outputVolume(let volume):
            write(UInt8(5))
            write(volume)
        case .plug(let kind, let uid):
            write(UInt8(6))
            write(kind)
            write(uid) { $0.write($1) }
        case .unplug(let uid):
            write(UInt8(7))
            write(uid)
        case .wake: write(UInt8(8))
        case .mediaServicesReset: write(UInt8(9))
        case .inputGain(let uid, let gain):
            write(UInt8(10))
            write(uid)
            write(gain)
        case .otherAudioStarted(let audio):
            write(UInt8(11))
            write(audio)
        case .otherAudioStopped(let id):
            write(UInt8(12))
            write(id)
        }
    }

    mutating func write(_ audio: OtherAudio) {
        write(audio.id)
        write(audio.name)
        write(audio.role) { $0.write($1) }
    }
}

extension WireReader {
    mutating func readCall() throws(WireError) -> AppCall {
        switch try readUInt8("app call") {
        case 0: return .setCategory(try readCategory(), mode: try readMode(), options: try readOptions())
        case 1: return .setMode(try readMode())
        case 2:
            return .setActive(try readBool("active"), options: SetActiveOptions(rawValue: try readUInt32("set-active options")))
        case 3: return .startOutput
        case 4: return .stopOutput
        case 5: return .startInput
        case 6: return .stopInput
        case 7: return .setAppState(try readBool("background") ? .background : .foreground)
        case 8: return .requestRecordPermission
        case 9:
            return .overrideOutput(try Self.readRaw("port override", PortOverride.init(rawValue:), readUInt32("port override")))
        case 10:
            return .setPreferredInput(
                try readOptional("preferred input") { r throws(WireError) in try r.readString("preferred input") })
        case 11: return .setInputDataSource(try readString("data source"))
        case 12: return .setPreferences(try readArray("preferences") { r throws(WireError) in try r.readPreference() })
        case 13: return .setInputGain(try readDouble("input gain"))
        case let tag: throw WireError(.unknownTag, "app call: no case \(tag)")
        }
    }

    private mutating func readPreference() throws(WireError) -> HardwarePreference {
        switch try readUInt8("preference") {
        case 0: return .sampleRate(try readDouble("sample rate"))
        case 1: return .ioBufferDuration(try readDouble("IO buffer duration"))
        case 2: return .inputChannels(try readInt("input channels"))
        case 3: return .outputChannels(try readInt("output channels"))
        case let tag: throw WireError(.unknownTag, "preference: no case \(tag)")
        }
    }

    mutating func readSystemEvent() throws(WireError) -> SystemEvent {
        switch try readUInt8("system event") {
        case 0: return .silentSwitch(on: try readBool("silent switch"))
        case 1: return .lock
        case 2: return .unlock
        case 3: return .systemSession(try readSystemSessionKind(), begin: try readBool("begin"))
        case 4: return .microphoneMute(on: try readBool("microphone mute"))
        case 5: return .outputVolume(try readDouble("output volume"))
        case 6:
            let kind = try readCase("accessory kind", of: AccessoryKind.allCases)
            return .plug(kind, uid: try readOptional("uid") { r throws(WireError) in try r.readString("uid") })
        case 7: return .unplug(uid: try readString("uid"))
        case 8: return .wake
        case 9: return .mediaServicesReset
        case 10: return .inputGain(uid: try readString("uid"), try readDouble("input gain"))
        case 11: return .otherAudioStarted(try readOtherAudio())
        case 12: return .otherAudioStopped(id: try readString("other-audio id"))
        case let tag: throw WireError(.unknownTag, "system event: no case \(tag)")
        }
    }

    mutating func readOtherAudio() throws(WireError) -> OtherAudio {
        OtherAudio(
            id: try readString("other-audio id"), name: try readString("other-audio name"),
            role: try readOptional("other-audio role") { r throws(WireError) in try r.readString("other-audio role") })
    }
}
