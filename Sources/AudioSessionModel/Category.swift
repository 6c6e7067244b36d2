/// An audio session category: the app's declared audio intent (SPEC §1, C1–C7).
///
/// A struct over an internal enum, so that new categories can be added without breaking
/// code that switches on them. Compare with `==` or use the static members.
public struct Category: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: UInt8, CaseIterable, Sendable {
        case ambient, soloAmbient, playback, record, playAndRecord, audioProcessing, multiRoute
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    /// C1 — output only, mixes with others, silenced by the switch and the lock.
    public static let ambient = Category(.ambient)
    /// C2 — the default: output only, non-mixable, silenced by the switch and the lock.
    public static let soloAmbient = Category(.soloAmbient)
    /// C3 — output that keeps playing with the switch or the lock.
    public static let playback = Category(.playback)
    /// C4 — input only; silences every other app's output while active (C11).
    public static let record = Category(.record)
    /// C5 — input and output, e.g. VoIP.
    public static let playAndRecord = Category(.playAndRecord)
    /// C6 — offline processing: no I/O, no part in arbitration (A8).
    public static let audioProcessing = Category(.audioProcessing)
    /// C7 — several outputs at once (RT6).
    public static let multiRoute = Category(.multiRoute)

    /// Every category, in SPEC order.
    public static let allCases: [Category] = Kind.allCases.map(Category.init)

    /// The scenario-file name (`playback`, `playAndRecord`, …).
    public var name: String {
        switch kind {
        case .ambient: "ambient"
        case .soloAmbient: "soloAmbient"
        case .playback: "playback"
        case .record: "record"
        case .playAndRecord: "playAndRecord"
        case .audioProcessing: "audioProcessing"
        case .multiRoute: "multiRoute"
        }
    }

    /// Apple's raw name, e.g. `AVAudioSessionCategoryPlayback`.
    public var rawName: String {
        "AVAudioSessionCategory" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The four-character C code of Audio Session Services, `nil` for multiRoute (SPEC §1).
    public var cCode: String? {
        switch kind {
        case .ambient: "ambi"
        case .soloAmbient: "solo"
        case .playback: "medi"
        case .record: "reca"
        case .playAndRecord: "plar"
        case .audioProcessing: "proc"
        case .multiRoute: nil
        }
    }

    /// The category with the given scenario name, or `nil`.
    public init?(name: String) {
        guard let match = Kind.allCases.first(where: { Category($0).name == name }) else { return nil }
        self.kind = match
    }

    public var description: String { name }

    /// Whether the category plays audio (SPEC §1 table, "output").
    public var hasOutput: Bool {
        switch kind {
        case .ambient, .soloAmbient, .playback, .playAndRecord, .multiRoute: true
        case .record, .audioProcessing: false
        }
    }

    /// Whether the category records audio (SPEC §1 table, "input").
    public var hasInput: Bool {
        switch kind {
        case .record, .playAndRecord, .multiRoute: true
        case .ambient, .soloAmbient, .playback, .audioProcessing: false
        }
    }

    /// SPEC A8: audioProcessing takes no part in arbitration.
    public var takesPartInArbitration: Bool { kind != .audioProcessing }

    /// Silenced by the silent switch (D2) and, like apps without background audio, by the lock (D3).
    package var isSilencedBySwitchAndLock: Bool { kind == .ambient || kind == .soloAmbient }
}
