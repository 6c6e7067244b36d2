import AudioSessionModel

/// An expected event; a field left `nil` is not checked (SCENARIOS.md "Expectations").
public enum EventPattern: Hashable, Sendable, CustomStringConvertible {
    case interruptionBegan(reason: InterruptionReason?)
    case interruptionEnded(shouldResume: Bool?)
    case routeChange(reason: RouteChangeReason, previous: String?, current: String?)
    case silenceSecondaryAudioHint(SilenceSecondaryAudioHintType)
    case mediaServicesLost
    case mediaServicesReset
    case outputVolume(Double)
    case recordPermission(granted: Bool)

    /// Whether the notification matches every field written.
    public func matches(_ notification: SessionNotification) -> Bool {
        switch (self, notification) {
        case (.interruptionBegan(let expected), .interruptionBegan(let reason)):
            expected.map { $0 == reason } ?? true
        case (.interruptionEnded(let expected), .interruptionEnded(let resume)):
            expected.map { $0 == resume } ?? true
        case (.routeChange(let reason, let previous, let current), .routeChange(let actual, let before, let after)):
            reason == actual && (previous.map { $0 == before.description } ?? true)
                && (current.map { $0 == after.description } ?? true)
        case (.silenceSecondaryAudioHint(let expected), .silenceSecondaryAudioHint(let type)):
            expected == type
        case (.mediaServicesLost, .mediaServicesLost), (.mediaServicesReset, .mediaServicesReset):
            true
        case (.outputVolume(let expected), .outputVolume(let volume)):
            abs(expected - volume) <= ScenarioValue.tolerance
        case (.recordPermission(let expected), .recordPermission(let granted)):
            expected == granted
        default:
            false
        }
    }

    /// The scenario form, with only the fields written.
    public var description: String {
        switch self {
        case .interruptionBegan(let reason): "interruption began" + (reason.map { " reason=\($0)" } ?? "")
        case .interruptionEnded(let resume): "interruption ended" + (resume.map { " should-resume=\($0)" } ?? "")
        case .routeChange(let reason, let previous, let current):
            "route-change reason=\(reason)" + (previous.map { " previous=\($0)" } ?? "")
                + (current.map { " current=\($0)" } ?? "")
        case .silenceSecondaryAudioHint(let type): "silence-secondary-audio-hint \(type)"
        case .mediaServicesLost: "media-services-lost"
        case .mediaServicesReset: "media-services-reset"
        case .outputVolume(let volume): "output-volume \(ScenarioValue.format(volume))"
        case .recordPermission(let granted): "record-permission \(granted ? "granted" : "denied")"
        }
    }
}

/// How scenario files write values.
enum ScenarioValue {
    /// "Numbers match within 1e-4."
    static let tolerance = 1e-4

    /// A decimal as scenario files write it: `1`, `0.2`, `48000`.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Parses a decimal written as digits with an optional sign and fraction (no `inf`, `0x…`).
    static func number(_ text: String) -> Double? { TextNumber.parse(text) }
}

extension SessionNotification {
    /// The notification as scenario files write events, with the values formatted their way.
    public var scenarioText: String {
        if case .outputVolume(let volume) = self { return "output-volume \(ScenarioValue.format(volume))" }
        return description
    }
}
