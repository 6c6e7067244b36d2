/// Category options (SPEC §2), with SPEC's raw values.
///
/// `interruptSpokenAudioAndMixWithOthers` is 0x11: it contains the mixWithOthers bit, as on iOS.
public struct CategoryOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
    public static let duckOthers = CategoryOptions(rawValue: 0x2)
    public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
    public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
    public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
    public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)

    /// Every named option with its scenario name, sorted by name (the order `options=` prints).
    public static let named: [(name: String, option: CategoryOptions)] = [
        ("allowAirPlay", .allowAirPlay),
        ("allowBluetooth", .allowBluetooth),
        ("allowBluetoothA2DP", .allowBluetoothA2DP),
        ("defaultToSpeaker", .defaultToSpeaker),
        ("duckOthers", .duckOthers),
        ("interruptSpokenAudioAndMixWithOthers", .interruptSpokenAudioAndMixWithOthers),
        ("mixWithOthers", .mixWithOthers),
        ("overrideMutedMicrophoneInterruption", .overrideMutedMicrophoneInterruption),
    ]

    /// The union of every named option's bits; a bit outside it is not an option.
    public static let known = CategoryOptions(named.map(\.option))

    /// The option with the given scenario name, or `nil`.
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.option
    }

    /// The names of the options contained, sorted; an option is contained when all its bits are.
    public var names: [String] {
        Self.named.filter { contains($0.option) }.map(\.name)
    }

    /// `,`-joined sorted names, or `none` (the scenario form).
    public var description: String { isEmpty ? "none" : names.joined(separator: ",") }

    /// SPEC §2 table (O1): whether this single named option is valid with the category.
    package func isValid(with category: Category) -> Bool {
        let category = category.kind
        return switch self {
        case .mixWithOthers: [.playback, .playAndRecord, .multiRoute, .ambient].contains(category)
        case .duckOthers: [.ambient, .playback, .playAndRecord, .multiRoute].contains(category)
        case .allowBluetooth: [.record, .playAndRecord].contains(category)
        case .defaultToSpeaker: category == .playAndRecord
        case .interruptSpokenAudioAndMixWithOthers: [.playback, .playAndRecord, .multiRoute].contains(category)
        case .allowBluetoothA2DP, .allowAirPlay:
            [.playAndRecord, .ambient, .soloAmbient, .playback].contains(category)
        case .overrideMutedMicrophoneInterruption: [.record, .playAndRecord, .multiRoute].contains(category)
        default: false
        }
    }
}
