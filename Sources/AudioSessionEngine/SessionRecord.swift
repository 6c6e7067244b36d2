import AudioSessionModel

/// Who interrupted a session (I1, I2): another app's session, a system session, or the
/// built-in microphone mute (I7).
enum Interrupter: Hashable, Sendable {
    case app(Int)
    case system(SystemSessionKind)
    case microphoneMute
}

/// What decides a session's own route (RT1–RT8): the group key for route recomputation.
struct RoutingConfig: Hashable, Sendable {
    var category: Category = .soloAmbient
    var mode: Mode = .default
    /// Effective options: set plus implied (O2, M2).
    var options: CategoryOptions = []
    /// RT7: output to the speaker (and input from the built-in mic) until the route changes.
    var overridesToSpeaker = false
    /// RT8: the accessory number of the preferred input port (0: the built-in microphone).
    var preferredInput: UInt32?
    /// RT13 (b): the output the user moved the app's audio to (its slot; no UIDs, no references).
    var chosenOutput: PortSlot?
}

/// One app's session: its configuration, activity and I/O (SPEC §0, C8 defaults).
/// Trivially copyable (the app's id lives in `Engine.appIDs`), so reading one copies no references.
struct SessionRecord: Hashable, Sendable {
    var capabilities: AppCapabilities
    /// The app's process ended (`Step.departure`); the id may register again.
    var hasDeparted = false
    /// The state of the app's last background/foreground step (D3: what unlock returns to).
    var requestedState: AppState = .foreground

    var category: Category = .soloAmbient
    var mode: Mode = .default
    /// Options exactly as the app set them.
    var setOptions: CategoryOptions = []
    /// O2, M2: set options plus mixWithOthers where implied plus the mode's options.
    private(set) var options: CategoryOptions = []

    var isActive = false
    /// Order of the last activation (A2 delivery order, RT9); 0 before the first one.
    var activationOrder: UInt64 = 0
    var interruptedBy: Interrupter?
    /// I6: interrupted for its spokenAudio mode, so the end always says shouldResume.
    var resumesAlways = false
    var outputRunning = false
    var inputRunning = false
    /// PL8: a player's session, paused when its private output goes away.
    var pausesOnDeviceLoss = false
    /// OA3: whether the last hint sent said begin.
    var hintOn = false
    /// HW3, HW4.
    var preferences = HardwarePreferences()
    /// RT7, RT8.
    var overridesToSpeaker = false
    /// RT8: the preferred input's accessory number (`PortSlot.accessory`).
    var preferredInput: UInt32?
    /// RT13 (b): the app's chosen output, the user's (a stream moved by hand).
    var chosenOutput: PortSlot?
    /// The last output gain sent as an effect (D4).
    var reportedGain: Double = 1

    init(capabilities: AppCapabilities) {
        self.capabilities = capabilities
    }

    /// Sets the configuration and recomputes the effective options (C10, O2, M2).
    mutating func configure(_ category: Category, _ mode: Mode, _ setOptions: CategoryOptions) {
        self.category = category
        self.mode = mode
        self.setOptions = setOptions
        self.options = Self.effectiveOptions(category, mode, setOptions)
    }

    static func effectiveOptions(_ category: Category, _ mode: Mode, _ set: CategoryOptions) -> CategoryOptions {
        var options = set.union(mode.impliedOptions(in: category))
        // O2: duckOthers and the ambient category imply mixWithOthers (interruptSpoken… holds the bit).
        if options.contains(.duckOthers) || category == .ambient { options.insert(.mixWithOthers) }
        return options
    }

    var routingConfig: RoutingConfig {
        RoutingConfig(
            category: category, mode: mode, options: options, overridesToSpeaker: overridesToSpeaker,
            preferredInput: preferredInput, chosenOutput: chosenOutput)
    }

    /// Whether the session has an override, a preferred input or a chosen output, which later
    /// steps may end.
    var hasRoutingChoice: Bool { overridesToSpeaker || preferredInput != nil || chosenOutput != nil }

    /// O3: ambient, or mixWithOthers set or implied.
    var isMixable: Bool { options.contains(.mixWithOthers) }
    /// OA5: a call, as other audio is concerned (a VoIP app's session, §18's hosted call):
    /// playAndRecord in voiceChat or videoChat.
    var isCall: Bool { category == .playAndRecord && (mode == .voiceChat || mode == .videoChat) }

    var takesPartInArbitration: Bool { category.takesPartInArbitration }

    /// A2: a session that interrupts others when it activates.
    var isArbitratedNonMixable: Bool { takesPartInArbitration && !isMixable }

    var ioRunning: Bool { outputRunning || inputRunning }

    /// C12: hardware codec for soloAmbient, playback, playAndRecord and audioProcessing unless mixable.
    var hardwareCodecAvailable: Bool {
        switch category {
        case .soloAmbient, .playback, .playAndRecord, .audioProcessing: !isMixable
        default: false
        }
    }

    /// MS2: back to the C8 defaults, keeping the app's capabilities and state.
    mutating func resetForMediaServices() {
        let state = requestedState
        self = SessionRecord(capabilities: capabilities)
        requestedState = state
    }
}
