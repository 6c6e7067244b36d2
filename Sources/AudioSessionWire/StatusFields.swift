import AudioSessionModel

// SessionStatus and DeviceStatus are described once, as a list of their stored fields in wire
// order (`visitFields`); the encoder and the decoder both walk that list, so a field is added in
// one place and the two directions cannot disagree.

/// A value a status field holds, with its wire form in both directions.
protocol WireField {
    static func read(_ reader: inout WireReader, _ field: String) throws(WireError) -> Self
    func write(_ writer: inout WireWriter)
}

/// Walks the fields of a `Value`: the encoder reads each, the decoder sets each.
protocol FieldVisitor<Value> {
    associatedtype Value
    associatedtype Failure: Error
    mutating func visit<T: WireField>(_ name: String, _ field: WritableKeyPath<Value, T>) throws(Failure)
}

/// Writes each field of a value.
struct FieldEncoder<Value>: FieldVisitor {
    let value: Value
    var writer: WireWriter

    mutating func visit<T: WireField>(_ name: String, _ field: WritableKeyPath<Value, T>) {
        value[keyPath: field].write(&writer)
    }
}

/// Reads each field into a value that starts blank.
struct FieldDecoder<Value>: FieldVisitor {
    var value: Value
    var reader: WireReader

    mutating func visit<T: WireField>(_ name: String, _ field: WritableKeyPath<Value, T>) throws(WireError) {
        value[keyPath: field] = try T.read(&reader, name)
    }
}

/// Collects the names of a value's wire fields, in order.
struct FieldNames<Value>: FieldVisitor {
    var names: [String] = []

    mutating func visit<T: WireField>(_ name: String, _ field: WritableKeyPath<Value, T>) { names.append(name) }
}

extension SessionStatus {
    /// The status's stored fields in wire order (docs/protocol.md "status").
    static func visitFields<V: FieldVisitor>(_ v: inout V) throws(V.Failure) where V.Value == SessionStatus {
        try v.visit("app", \.app)
        try v.visit("category", \.category)
        try v.visit("mode", \.mode)
        try v.visit("category options", \.categoryOptions)
        try v.visit("active", \.isActive)
        try v.visit("background", \.appState)
        try v.visit("output running", \.isOutputRunning)
        try v.visit("input running", \.isInputRunning)
        try v.visit("interrupted", \.isInterrupted)
        try v.visit("current route", \.currentRoute)
        try v.visit("available inputs", \.availableInputs)
        try v.visit("preferred input", \.preferredInput)
        try v.visit("override", \.overridesToSpeaker)
        try v.visit("output gain", \.outputGain)
        try v.visit("records silence", \.recordsSilence)
        try v.visit("other audio playing", \.isOtherAudioPlaying)
        try v.visit("silence hint", \.secondaryAudioShouldBeSilencedHint)
        try v.visit("record permission", \.recordPermission)
        try v.visit("input available", \.isInputAvailable)
        try v.visit("output volume", \.outputVolume)
        try v.visit("hardware codec", \.isHardwareCodecAvailable)
        try v.visit("preferences", \.preferences)
        try v.visit("sample rate", \.sampleRate)
        try v.visit("IO buffer duration", \.ioBufferDuration)
        try v.visit("input channels", \.inputChannels)
        try v.visit("maximum input channels", \.maximumInputChannels)
        try v.visit("input latency", \.inputLatency)
        try v.visit("output channels", \.outputChannels)
        try v.visit("maximum output channels", \.maximumOutputChannels)
        try v.visit("output latency", \.outputLatency)
        try v.visit("input gain", \.inputGain)
        try v.visit("input gain settable", \.isInputGainSettable)
        try v.visit("system sounds silenced", \.systemSoundsSilenced)
    }

    /// What the decoder starts from; every field is then read.
    static let blank = SessionStatus(
        app: AppID("-"), category: .soloAmbient, mode: .default, categoryOptions: [], isActive: false, appState: .foreground,
        isOutputRunning: false, isInputRunning: false, isInterrupted: false, currentRoute: Route(), availableInputs: [],
        preferredInput: nil, overridesToSpeaker: false, outputGain: 1, recordsSilence: false, isOtherAudioPlaying: false,
        secondaryAudioShouldBeSilencedHint: false, recordPermission: .undetermined, isInputAvailable: false, outputVolume: 1,
        isHardwareCodecAvailable: false, preferences: HardwarePreferences(), sampleRate: 0, ioBufferDuration: 0,
        inputChannels: .success(0), maximumInputChannels: .success(0), inputLatency: .success(0), outputChannels: .success(0),
        maximumOutputChannels: .success(0), outputLatency: .success(0), inputGain: 0, isInputGainSettable: false)
}

extension DeviceStatus {
    /// The device status's fields in wire order (docs/protocol.md "device status").
    static func visitFields<V: FieldVisitor>(_ v: inout V) throws(V.Failure) where V.Value == DeviceStatus {
        try v.visit("profile", \.profile)
        try v.visit("inputs", \.inputs)
        try v.visit("outputs", \.outputs)
        try v.visit("routing owner", \.routingOwner)
        try v.visit("route", \.route)
        try v.visit("active apps", \.activeApps)
        try v.visit("system sessions", \.systemSessions)
        try v.visit("output volume", \.outputVolume)
        try v.visit("locked", \.isLocked)
        try v.visit("silent switch", \.silentSwitchOn)
        try v.visit("microphone muted", \.microphoneMuted)
        try v.visit("duck level", \.duckLevel)
        try v.visit("other audio", \.otherAudio)
        try v.visit("output choice", \.outputChoice)
    }

    static let blank = DeviceStatus(profile: .iphone)

    /// The names of the device status's wire fields, in order (T4: each must be classified as a
    /// device-wide fact or filtered for readers of another uid; the runtime's tests check it).
    package static var wireFieldNames: [String] {
        var names = FieldNames<DeviceStatus>()
        visitFields(&names)
        return names.names
    }
}

extension WireWriter {
    mutating func write(_ status: SessionStatus) {
        var encoder = FieldEncoder(value: status, writer: self)
        SessionStatus.visitFields(&encoder)
        self = encoder.writer
    }

    mutating func write(_ status: DeviceStatus) {
        var encoder = FieldEncoder(value: status, writer: self)
        DeviceStatus.visitFields(&encoder)
        self = encoder.writer
    }
}

extension WireReader {
    mutating func readStatus() throws(WireError) -> SessionStatus {
        var decoder = FieldDecoder(value: SessionStatus.blank, reader: self)
        try SessionStatus.visitFields(&decoder)
        self = decoder.reader
        return decoder.value
    }

    mutating func readDeviceStatus() throws(WireError) -> DeviceStatus {
        var decoder = FieldDecoder(value: DeviceStatus.blank, reader: self)
        try DeviceStatus.visitFields(&decoder)
        self = decoder.reader
        return decoder.value
    }
}

// The field types.

extension Bool: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Bool { try r.readBool(field) }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Double: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Double { try r.readDouble(field) }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Int: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Int { try r.readInt(field) }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension String: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> String { try r.readString(field) }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension AppID: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> AppID { try r.readAppID(field) }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Category: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Category { try r.readCategory() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Mode: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Mode { try r.readMode() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension CategoryOptions: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> CategoryOptions { try r.readOptions() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension DeviceProfile: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> DeviceProfile { try r.readProfile() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

/// `true` for background, as the protocol has always sent it.
extension AppState: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> AppState {
        try r.readBool(field) ? .background : .foreground
    }
    func write(_ w: inout WireWriter) { w.write(self == .background) }
}

extension RecordPermission: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> RecordPermission {
        try WireReader.readRaw(field, RecordPermission.init(rawValue:), r.readUInt32(field))
    }
    func write(_ w: inout WireWriter) { w.write(rawValue) }
}

extension SystemSessionKind: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> SystemSessionKind {
        try r.readSystemSessionKind()
    }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Port: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Port { try r.readPort() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension Route: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Route { try r.readRoute() }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension HardwarePreferences: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> HardwarePreferences {
        try r.readPreferences()
    }
    func write(_ w: inout WireWriter) { w.write(self) }
}

extension OtherAudioStatus: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> OtherAudioStatus {
        OtherAudioStatus(
            audio: try r.readOtherAudio(), gain: try r.readDouble("\(field) gain"), isMuted: try r.readBool("\(field) muted"))
    }
    func write(_ w: inout WireWriter) {
        w.write(audio)
        w.write(gain)
        w.write(isMuted)
    }
}

extension Optional: WireField where Wrapped: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Wrapped? {
        try r.readOptional(field) { r throws(WireError) in try Wrapped.read(&r, field) }
    }
    func write(_ w: inout WireWriter) { w.write(self) { $1.write(&$0) } }
}

extension Array: WireField where Element: WireField {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> [Element] {
        try r.readArray(field) { r throws(WireError) in try Element.read(&r, field) }
    }
    func write(_ w: inout WireWriter) { w.write(self) { $1.write(&$0) } }
}

extension Result: WireField where Success: WireField, Failure == SessionError {
    static func read(_ r: inout WireReader, _ field: String) throws(WireError) -> Result<Success, SessionError> {
        try r.readResult(field) { r throws(WireError) in try Success.read(&r, field) }
    }
    func write(_ w: inout WireWriter) { w.write(self) { $1.write(&$0) } }
}
