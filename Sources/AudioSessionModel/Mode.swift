/// An audio session mode, refining a category for a use (SPEC §3).
public struct Mode: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: UInt8, CaseIterable, Sendable {
        case `default`, voiceChat, gameChat, videoChat, videoRecording, measurement,
            moviePlayback, spokenAudio, voicePrompt
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    public static let `default` = Mode(.default)
    public static let voiceChat = Mode(.voiceChat)
    public static let gameChat = Mode(.gameChat)
    public static let videoChat = Mode(.videoChat)
    public static let videoRecording = Mode(.videoRecording)
    public static let measurement = Mode(.measurement)
    public static let moviePlayback = Mode(.moviePlayback)
    public static let spokenAudio = Mode(.spokenAudio)
    public static let voicePrompt = Mode(.voicePrompt)

    /// Every mode, in SPEC order.
    public static let allCases: [Mode] = Kind.allCases.map(Mode.init)

    /// The scenario-file name (`default`, `voiceChat`, …).
    public var name: String {
        switch kind {
        case .default: "default"
        case .voiceChat: "voiceChat"
        case .gameChat: "gameChat"
        case .videoChat: "videoChat"
        case .videoRecording: "videoRecording"
        case .measurement: "measurement"
        case .moviePlayback: "moviePlayback"
        case .spokenAudio: "spokenAudio"
        case .voicePrompt: "voicePrompt"
        }
    }

    /// Apple's raw name, e.g. `AVAudioSessionModeSpokenAudio`.
    public var rawName: String { "AVAudioSessionMode" + name.prefix(1).uppercased() + name.dropFirst() }

    /// The four-character C code, where Audio Session Services has one (SPEC §3).
    public var cCode: String? {
        switch kind {
        case .default: "dflt"
        case .voiceChat: "vcct"
        case .gameChat: "gmct"
        case .videoRecording: "vrcd"
        case .measurement: "msmt"
        case .videoChat, .moviePlayback, .spokenAudio, .voicePrompt: nil
        }
    }

    /// The mode with the given scenario name, or `nil`.
    public init?(name: String) {
        guard let match = Kind.allCases.first(where: { Mode($0).name == name }) else { return nil }
        self.kind = match
    }

    public var description: String { name }

    /// SPEC §3 table: the categories this mode is valid with (M1).
    public func isValid(with category: Category) -> Bool {
        switch kind {
        case .default: true
        case .voiceChat, .gameChat: category == .playAndRecord
        case .videoChat, .videoRecording: category == .playAndRecord || category == .record
        case .measurement: category == .playback || category == .record || category == .playAndRecord
        case .moviePlayback, .spokenAudio: category == .playback
        case .voicePrompt: category == .playback || category == .playAndRecord
        }
    }

    /// SPEC M2: the options this mode implies in the given category.
    package func impliedOptions(in category: Category) -> CategoryOptions {
        switch kind {
        case .voiceChat: .allowBluetooth
        case .videoChat, .gameChat:
            category == .playAndRecord ? [.allowBluetooth, .defaultToSpeaker] : .allowBluetooth
        default: []
        }
    }
}
