import AudioSessionModel
import Dispatch
import Synchronization

// The AVAudioSession surface (SPEC §1–10), each a thin call of `perform(_:)` or a read of `status()`.
extension AudioSession {
    /// C9, C10, O1, M1: sets the category, mode and options together.
    public func setCategory(_ category: Category, mode: Mode = .default, options: CategoryOptions = []) throws(SessionError) {
        try perform(.setCategory(category, mode: mode, options: options))
    }

    /// M1, M3.
    public func setMode(_ mode: Mode) throws(SessionError) { try perform(.setMode(mode)) }

    /// A1–A9: activates or deactivates the session; `notifyOthersOnDeactivation` lets the
    /// sessions this one interrupted resume (A6).
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws(SessionError) {
        try perform(.setActive(active, options: options))
    }

    /// IO1, IO2: the app's output starts or stops running (a player calls this).
    public func reportOutputRunning(_ running: Bool) throws(SessionError) {
        try perform(running ? .startOutput : .stopOutput)
    }

    /// IO1, IO2, P3: the app's input starts or stops running (a recorder calls this).
    public func reportInputRunning(_ running: Bool) throws(SessionError) {
        try perform(running ? .startInput : .stopInput)
    }

    /// D3, D5, A4: the app moved to the foreground or the background. (UIKit's
    /// `UIApplication.shared.applicationState` follows, with its notifications.)
    public func setApplicationState(_ state: AppState) throws(SessionError) {
        try perform(.setAppState(state))
        let (previous, followers) = Self.applicationStateRecord.withLock { record in
            defer { record.state = state }
            return (record.state, record.followers)
        }
        if previous != state { for follower in followers { follower(state) } }
    }

    /// The state the app last set with `setApplicationState` (foreground until it says otherwise).
    public static var applicationState: AppState { applicationStateRecord.withLock { $0.state } }

    /// Calls `follower` after each change of the app's state (UIKit's `UIApplication` follows it
    /// so, with its notifications), in the order followers were added.
    public static func followApplicationState(_ follower: @escaping @Sendable (AppState) -> Void) {
        applicationStateRecord.withLock { $0.followers.append(follower) }
    }

    private static let applicationStateRecord = Mutex<(state: AppState, followers: [@Sendable (AppState) -> Void])>(
        (.foreground, []))

    /// RT8: prefers the input with this UID (`nil` clears).
    public func setPreferredInput(_ uid: String?) throws(SessionError) { try perform(.setPreferredInput(uid)) }

    /// RT7: routes output to the speaker (`.speaker`) or ends the override (`.none`).
    public func overrideOutputAudioPort(_ port: PortOverride) throws(SessionError) { try perform(.overrideOutput(port)) }

    /// RT12: selects a data source of the current input by name.
    public func setInputDataSource(_ name: String) throws(SessionError) { try perform(.setInputDataSource(name)) }

    /// HW3: the preferred sample rate.
    public func setPreferredSampleRate(_ rate: Double) throws(SessionError) { try perform(.setPreferences([.sampleRate(rate)])) }

    /// HW3: the preferred IO buffer duration, in seconds.
    public func setPreferredIOBufferDuration(_ duration: Double) throws(SessionError) {
        try perform(.setPreferences([.ioBufferDuration(duration)]))
    }

    /// HW4: the preferred number of input channels.
    public func setPreferredInputNumberOfChannels(_ count: Int) throws(SessionError) {
        try perform(.setPreferences([.inputChannels(count)]))
    }

    /// HW4: the preferred number of output channels.
    public func setPreferredOutputNumberOfChannels(_ count: Int) throws(SessionError) {
        try perform(.setPreferences([.outputChannels(count)]))
    }

    /// HW6: the current input's gain, 0…1.
    public func setInputGain(_ gain: Double) throws(SessionError) { try perform(.setInputGain(gain)) }

    /// P2: asks for record permission; returns the user's answer. Suspends until the user
    /// answers (with a daemon in `ask` mode, until a system controller does).
    public func requestRecordPermission() async -> Bool {
        await withCheckedContinuation { continuation in
            let token = state.withLock { state -> UInt64 in
                state.nextToken += 1
                state.permissionWaiters[state.nextToken] = continuation
                return state.nextToken
            }
            do throws(SessionError) {
                try perform(.requestRecordPermission)
            } catch {
                let waiter = state.withLock { $0.permissionWaiters.removeValue(forKey: token) }
                waiter?.resume(returning: false)
            }
        }
    }

    // MARK: Reading

    /// The last status read, or a fresh session's while nothing could be read (msrv).
    private var current: SessionStatus {
        if let status = try? status() { return status }
        return state.withLock { $0.lastStatus } ?? SessionStatus.fresh(appID)
    }

    /// C1–C7: the session's category (C8: soloAmbient until set).
    public var category: Category { current.category }
    /// M1: the session's mode.
    public var mode: Mode { current.mode }
    /// O2: the options set plus those implied.
    public var categoryOptions: CategoryOptions { current.categoryOptions }
    /// A1: whether the session is active (an interruption makes it inactive, I1).
    public var isActive: Bool { current.isActive }
    /// RT10.
    public var currentRoute: Route { current.currentRoute }
    /// RT4.
    public var availableInputs: [AudioSessionModel.Port] { current.availableInputs }
    /// RT8: the preferred input's UID.
    public var preferredInput: String? { current.preferredInput }
    /// HW3.
    public var preferredSampleRate: Double? { current.preferences.sampleRate }
    /// HW1.
    public var sampleRate: Double { current.sampleRate }
    /// HW3.
    public var preferredIOBufferDuration: Double? { current.preferences.ioBufferDuration }
    /// HW4: the preferred numbers of input and output channels, `nil` when none was set.
    public var preferredInputNumberOfChannels: Int? { current.preferences.inputChannels }
    public var preferredOutputNumberOfChannels: Int? { current.preferences.outputChannels }
    /// HW2.
    public var ioBufferDuration: Double { current.ioBufferDuration }
    /// HW4: 0 when the category has no input (`status().inputChannels` holds the `!cat`).
    public var inputNumberOfChannels: Int { (try? current.inputChannels.get()) ?? 0 }
    /// HW4: 0 when the category has no output.
    public var outputNumberOfChannels: Int { (try? current.outputChannels.get()) ?? 0 }
    /// HW4: the most input channels the current route offers; 0 without input.
    public var maximumInputNumberOfChannels: Int { (try? current.maximumInputChannels.get()) ?? 0 }
    /// HW4: the most output channels the current route offers; 0 without output.
    public var maximumOutputNumberOfChannels: Int { (try? current.maximumOutputChannels.get()) ?? 0 }
    /// HW5, in seconds; 0 without input.
    public var inputLatency: Double { (try? current.inputLatency.get()) ?? 0 }
    /// HW5, in seconds; 0 without output.
    public var outputLatency: Double { (try? current.outputLatency.get()) ?? 0 }
    /// HW6: the current input's gain, 0…1.
    public var inputGain: Double { current.inputGain }
    /// HW6: whether the current input's gain can be set.
    public var isInputGainSettable: Bool { current.isInputGainSettable }
    /// HW6: whether the device has an input port.
    public var isInputAvailable: Bool { current.isInputAvailable }
    /// HW7.
    public var outputVolume: Double { current.outputVolume }
    /// P1.
    public var recordPermission: RecordPermission { current.recordPermission }
    /// OA1.
    public var isOtherAudioPlaying: Bool { current.isOtherAudioPlaying }
    /// OA2.
    public var secondaryAudioShouldBeSilencedHint: Bool { current.secondaryAudioShouldBeSilencedHint }
    /// D4: the factor the system applies to this app's output (ducking, silencing); a player
    /// multiplies its samples by it. Never the app's own volume.
    public var outputGain: Double { state.withLock { $0.outputGain } }
}

extension AudioSession {
    /// The `media.role` of the app's own streams on a sound server, from its category and mode
    /// (the players', the queues' and the units' streams alike).
    package var streamRole: String {
        switch (category, mode) {
        case (_, .voiceChat), (_, .videoChat): "phone"
        case (.ambient, _), (.soloAmbient, _): "game"
        default: "music"
        }
    }
}
