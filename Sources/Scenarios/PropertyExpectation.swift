import AudioSessionModel

/// A session property that `expect NAME PROPERTY=VALUE` can check (SCENARIOS.md "Properties").
public enum ScenarioProperty: String, CaseIterable, Hashable, Sendable {
    case active, category, mode, options, route, inputs, outputs, gain
    case otherAudioPlaying = "other-audio-playing"
    case secondaryHint = "secondary-hint"
    case recordPermission = "record-permission"
    case inputAvailable = "input-available"
    case outputVolume = "output-volume"
    case hardwareCodec = "hardware-codec"
    case availableInputs = "available-inputs"
    case preferredInput = "preferred-input"
    case inputDataSource = "input-data-source"
    case sampleRate = "sample-rate"
    case ioBuffer = "io-buffer"
    case inputChannels = "input-channels"
    case outputChannels = "output-channels"
    case maxInputChannels = "max-input-channels"
    case maxOutputChannels = "max-output-channels"
    case inputLatency = "input-latency"
    case outputLatency = "output-latency"
    case inputGain = "input-gain"

    /// Reads the property from a session's status.
    func value(in status: SessionStatus) -> PropertyValue {
        switch self {
        case .active: .bool(status.isActive)
        case .category: .text(status.category.name)
        case .mode: .text(status.mode.name)
        case .options: .text(status.categoryOptions.description)
        case .route: .text(status.currentRoute.description)
        case .inputs: .text(Route.list(status.currentRoute.inputs))
        case .outputs: .text(Route.list(status.currentRoute.outputs))
        case .gain: .number(status.outputGain)
        case .otherAudioPlaying: .bool(status.isOtherAudioPlaying)
        case .secondaryHint: .bool(status.secondaryAudioShouldBeSilencedHint)
        case .recordPermission: .text(status.recordPermission.description)
        case .inputAvailable: .bool(status.isInputAvailable)
        case .outputVolume: .number(status.outputVolume)
        case .hardwareCodec: .bool(status.isHardwareCodecAvailable)
        case .availableInputs:
            .text(status.availableInputs.isEmpty ? "-" : status.availableInputs.map(\.uid).joined(separator: "+"))
        case .preferredInput: .text(status.preferredInput ?? "none")
        case .inputDataSource: .text(status.inputDataSource ?? "none")
        case .sampleRate: .number(status.sampleRate)
        case .ioBuffer: .number(status.ioBufferDuration)
        case .inputChannels: .init(status.inputChannels.map(Double.init))
        case .outputChannels: .init(status.outputChannels.map(Double.init))
        case .maxInputChannels: .init(status.maximumInputChannels.map(Double.init))
        case .maxOutputChannels: .init(status.maximumOutputChannels.map(Double.init))
        case .inputLatency: .init(status.inputLatency)
        case .outputLatency: .init(status.outputLatency)
        case .inputGain: .number(status.inputGain)
        }
    }

    /// Parses the value written after `=`, or says what was expected.
    func parse(_ text: String) -> Result<PropertyValue, ExpectedText> {
        switch self {
        case .active, .otherAudioPlaying, .secondaryHint, .inputAvailable, .hardwareCodec:
            if let value = Bool(text) { return .success(.bool(value)) }
            return .failure("true or false")
        case .gain, .outputVolume, .sampleRate, .ioBuffer, .inputGain:
            if let value = ScenarioValue.number(text) { return .success(.number(value)) }
            return .failure("a number")
        case .inputChannels, .outputChannels, .maxInputChannels, .maxOutputChannels, .inputLatency, .outputLatency:
            // A property that fails to read (HW5) is written with its code.
            if let value = ScenarioValue.number(text) { return .success(.number(value)) }
            if let code = SessionError.Code(scenarioName: text) { return .success(.error(code)) }
            return .failure("a number or an error code")
        case .category:
            if let category = Category(name: text) { return .success(.text(category.name)) }
            return .failure(ExpectedText("a category (\(Category.allCases.map(\.name).joined(separator: " ")))"))
        case .mode:
            if let mode = Mode(name: text) { return .success(.text(mode.name)) }
            return .failure(ExpectedText("a mode (\(Mode.allCases.map(\.name).joined(separator: " ")))"))
        case .options:
            if let options = ScenarioSyntax.options(text) { return .success(.text(options.description)) }
            return .failure(
                ExpectedText("none or options joined by `,` (\(CategoryOptions.named.map(\.name).joined(separator: " ")))"))
        case .route:
            if let route = ScenarioSyntax.route(text) { return .success(.text(route)) }
            return .failure("a route INPUTS>OUTPUTS of port types joined by `+`, `-` for none")
        case .inputs, .outputs:
            if ScenarioSyntax.portList(text) { return .success(.text(text)) }
            return .failure("port types joined by `+`, or `-`")
        case .availableInputs:
            let valid =
                text == "-"
                || text.split(separator: "+", omittingEmptySubsequences: false).allSatisfy { Port.isValidUID(String($0)) }
            return valid ? .success(.text(text)) : .failure("UIDs joined by `+`, or `-`")
        case .preferredInput:
            return Port.isValidUID(text) ? .success(.text(text)) : .failure("a UID or none")
        case .inputDataSource:
            return .success(.text(text))
        case .recordPermission:
            if ["undetermined", "denied", "granted"].contains(text) { return .success(.text(text)) }
            return .failure("undetermined, denied or granted")
        }
    }
}

/// A property's value as read or expected.
public enum PropertyValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case number(Double)
    case text(String)
    /// A property that failed to read, e.g. `input-latency=!cat`.
    case error(SessionError.Code)

    init(_ result: Result<Double, SessionError>) {
        switch result {
        case .success(let value): self = .number(value)
        case .failure(let error): self = .error(error.code)
        }
    }

    /// Equality, with numbers matching within 1e-4.
    func matches(_ other: PropertyValue) -> Bool {
        if case .number(let a) = self, case .number(let b) = other { return abs(a - b) <= ScenarioValue.tolerance }
        return self == other
    }

    public var description: String {
        switch self {
        case .bool(let value): String(value)
        case .number(let value): ScenarioValue.format(value)
        case .text(let value): value
        case .error(let code): code.fourCharacterCode
        }
    }
}

/// `PROPERTY=VALUE` in an `expect` step.
public struct PropertyExpectation: Hashable, Sendable {
    public var property: ScenarioProperty
    public var expected: PropertyValue
}

/// What a parser expected, for its error message.
public struct ExpectedText: Error, Hashable, Sendable, ExpressibleByStringLiteral {
    public var text: String
    public init(_ text: String) { self.text = text }
    public init(stringLiteral value: String) { self.text = value }
}

/// Syntax shared by steps and expectations.
enum ScenarioSyntax {
    /// `none` or `OPT,OPT…`.
    static func options(_ text: String) -> CategoryOptions? {
        if text == "none" { return [] }
        var options: CategoryOptions = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let option = CategoryOptions(name: String(name)) else { return nil }
            options.insert(option)
        }
        return options
    }

    /// `INPUTS>OUTPUTS`, returned as written when every port type is known.
    static func route(_ text: String) -> String? {
        let sides = text.split(separator: ">", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ portList(String($0)) }) else { return nil }
        return text
    }

    /// `-` or port types joined by `+`.
    static func portList(_ text: String) -> Bool {
        text == "-"
            || text.split(separator: "+", omittingEmptySubsequences: false).allSatisfy {
                PortType(rawValue: String($0)) != nil
            }
    }

    /// `[a-z][a-z0-9-]*`
    static func isAppName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
