import AudioSessionModel

// The engine's values in wire form (docs/protocol.md "Values"). Table values (category,
// mode, port type, accessory kind, profile, system session) travel as their index in the
// engine's `allCases`; raw-valued enums as their raw value.

extension WireWriter {
    mutating func write(_ value: AppID) { write(value.rawValue) }
    mutating func write(_ value: Category) { writeIndex(of: value, in: Category.allCases) }
    mutating func write(_ value: Mode) { writeIndex(of: value, in: Mode.allCases) }
    mutating func write(_ value: CategoryOptions) { write(value.rawValue) }
    mutating func write(_ value: AppCapabilities) { write(value.rawValue) }
    mutating func write(_ value: DeviceProfile) { writeIndex(of: value, in: DeviceProfile.allCases) }
    mutating func write(_ value: AccessoryKind) { writeIndex(of: value, in: AccessoryKind.allCases) }
    mutating func write(_ value: SystemSessionKind) { write(value.rawValue) }

    mutating func write(_ value: Port) {
        writeIndex(of: value.type, in: PortType.allCases)
        write(value.uid)
        write(value.name)
        write(value.dataSources) { $0.write($1) }
        write(value.selectedDataSource) { $0.write($1) }
        write(value.sampleRate) { $0.write($1) }  // version 10
    }

    mutating func write(_ value: Route) {
        write(value.inputs) { $0.write($1) }
        write(value.outputs) { $0.write($1) }
    }

    mutating func write(_ value: SessionError) {
        write(value.code.rawValue)
        write(value.message)
    }

    mutating func write(_ value: SessionNotification) {
        switch value {
        case .interruptionBegan(let reason):
            write(tag: NotificationTag.interruptionBegan)
            write(reason.rawValue)
        case .interruptionEnded(let shouldResume):
            write(tag: NotificationTag.interruptionEnded)
            write(shouldResume)
        case .routeChange(let reason, let previous, let current):
            write(tag: NotificationTag.routeChange)
            write(reason.rawValue)
            write(previous)
            write(current)
        case .silenceSecondaryAudioHint(let type):
            write(tag: NotificationTag.silenceSecondaryAudioHint)
            write(type.rawValue)
        case .mediaServicesLost: write(tag: NotificationTag.mediaServicesLost)
        case .mediaServicesReset: write(tag: NotificationTag.mediaServicesReset)
        case .outputVolume(let volume):
            write(tag: NotificationTag.outputVolume)
            write(volume)
        case .recordPermission(let granted):
            write(tag: NotificationTag.recordPermission)
            write(granted)
        }
    }

    mutating func write(_ value: HardwarePreferences) {
        write(value.sampleRate) { $0.write($1) }
        write(value.ioBufferDuration) { $0.write($1) }
        write(value.inputChannels) { $0.write($1) }
        write(value.outputChannels) { $0.write($1) }
    }

    mutating func write<T>(_ value: Result<T, SessionError>, _ body: (inout WireWriter, T) -> Void) {
        switch value {
        case .success(let success):
            write(true)
            body(&self, success)
        case .failure(let error):
            write(false)
            write(error)
        }
    }

    private mutating func writeIndex<T: Equatable>(of value: T, in table: [T]) {
        write(UInt8(truncatingIfNeeded: table.firstIndex(of: value) ?? 0))
    }
}

extension WireReader {
    mutating func readAppID(_ field: @autoclosure () -> String) throws(WireError) -> AppID {
        let name = try readString(field())
        guard !name.isEmpty else { throw WireError(.badValue, "\(field()): an app id must not be empty") }
        return AppID(name)
    }

    mutating func readCategory() throws(WireError) -> Category { try readCase("category", of: Category.allCases) }
    mutating func readMode() throws(WireError) -> Mode { try readCase("mode", of: Mode.allCases) }
    mutating func readOptions() throws(WireError) -> CategoryOptions {
        CategoryOptions(rawValue: try readUInt32("category options"))
    }
    mutating func readProfile() throws(WireError) -> DeviceProfile { try readCase("device profile", of: DeviceProfile.allCases) }

    mutating func readSystemSessionKind() throws(WireError) -> SystemSessionKind {
        try Self.readRaw("system session", SystemSessionKind.init(rawValue:), readUInt8("system session"))
    }

    mutating func readPort() throws(WireError) -> Port {
        let type = try readCase("port type", of: PortType.allCases)
        let uid = try readString("port uid")
        let name = try readString("port name")
        var port = Port(
            type: type, uid: uid, name: name,
            dataSources: try readArray("data sources") { r throws(WireError) in try r.readString("data source") })
        port.selectedDataSource = try readOptional("selected data source") { r throws(WireError) in
            try r.readString("selected data source")
        }
        port.sampleRate = try readOptional("port sample rate") { r throws(WireError) in try r.readDouble("port sample rate") }
        return port
    }

    mutating func readRoute() throws(WireError) -> Route {
        let inputs = try readArray("route inputs") { r throws(WireError) in try r.readPort() }
        let outputs = try readArray("route outputs") { r throws(WireError) in try r.readPort() }
        return Route(inputs: inputs, outputs: outputs)
    }

    mutating func readSessionError() throws(WireError) -> SessionError {
        let code = SessionError.Code(rawValue: try readInt32("error code"))
        return SessionError(code, try readString("error message"))
    }

    mutating func readNotification() throws(WireError) -> SessionNotification {
        switch try readTag("notification", as: NotificationTag.self) {
        case .interruptionBegan:
            return .interruptionBegan(
                reason: try Self.readRaw(
                    "interruption reason", InterruptionReason.init(rawValue:), readUInt32("interruption reason")))
        case .interruptionEnded: return .interruptionEnded(shouldResume: try readBool("should resume"))
        case .routeChange:
            let reason = try Self.readRaw(
                "route change reason", RouteChangeReason.init(rawValue:), readUInt32("route change reason"))
            return .routeChange(reason: reason, previous: try readRoute(), current: try readRoute())
        case .silenceSecondaryAudioHint:
            return .silenceSecondaryAudioHint(
                try Self.readRaw("hint type", SilenceSecondaryAudioHintType.init(rawValue:), readUInt32("hint type")))
        case .mediaServicesLost: return .mediaServicesLost
        case .mediaServicesReset: return .mediaServicesReset
        case .outputVolume: return .outputVolume(try readDouble("output volume"))
        case .recordPermission: return .recordPermission(granted: try readBool("record permission"))
        }
    }

    mutating func readPreferences() throws(WireError) -> HardwarePreferences {
        var preferences = HardwarePreferences()
        preferences.sampleRate = try readOptional("preferred sample rate") { r throws(WireError) in
            try r.readDouble("preferred sample rate")
        }
        preferences.ioBufferDuration = try readOptional("preferred IO buffer") { r throws(WireError) in
            try r.readDouble("preferred IO buffer")
        }
        preferences.inputChannels = try readOptional("preferred input channels") { r throws(WireError) in
            try r.readInt("preferred input channels")
        }
        preferences.outputChannels = try readOptional("preferred output channels") { r throws(WireError) in
            try r.readInt("preferred output channels")
        }
        return preferences
    }

    mutating func readResult<T>(
        _ field: String, _ body: (inout WireReader) throws(WireError) -> T
    ) throws(WireError) -> Result<T, SessionError> {
        try readBool(field) ? .success(try body(&self)) : .failure(try readSessionError())
    }

    /// A raw-valued enum case, or `unknownTag` naming the field.
    static func readRaw<Raw, T>(_ field: String, _ make: (Raw) -> T?, _ raw: Raw) throws(WireError) -> T {
        guard let value = make(raw) else { throw WireError(.unknownTag, "\(field): no case \(raw)") }
        return value
    }
}
