/// Everything an app can read about its session at one moment (SPEC §1–8, §10).
public struct SessionStatus: Hashable, Sendable {
    public var app: AppID
    public var category: Category
    public var mode: Mode
    /// O2: the options set plus those implied by the category, other options and the mode.
    public var categoryOptions: CategoryOptions
    public var isActive: Bool
    /// D3: background while the screen is locked.
    public var appState: AppState
    public var isOutputRunning: Bool
    public var isInputRunning: Bool
    /// Whether the session is interrupted (I1) and waits for its `ended`.
    public var isInterrupted: Bool
    /// RT10.
    public var currentRoute: Route
    /// RT4: the inputs the session's configuration may choose, built-in first.
    public var availableInputs: [Port]
    /// RT8: the preferred input's UID.
    public var preferredInput: String?
    /// RT12: the current input's selected data source.
    public var inputDataSource: String? { currentRoute.inputs.first?.selectedDataSource }
    /// RT7: whether the speaker override is in force.
    public var overridesToSpeaker: Bool
    /// D4: the factor applied to the session's output; never shown as the app's volume.
    public var outputGain: Double
    /// D5, P3, I7: the session's input records zeros.
    public var recordsSilence: Bool
    /// OA1.
    public var isOtherAudioPlaying: Bool
    /// OA2.
    public var secondaryAudioShouldBeSilencedHint: Bool
    /// P1.
    public var recordPermission: RecordPermission
    /// HW6.
    public var isInputAvailable: Bool
    /// HW7.
    public var outputVolume: Double
    /// C12.
    public var isHardwareCodecAvailable: Bool
    /// HW3, HW4: the session's own preferences.
    public var preferences: HardwarePreferences
    /// HW1.
    public var sampleRate: Double
    /// HW2.
    public var ioBufferDuration: Double
    /// HW4, HW5: channel counts, maxima and latency per direction; `!cat` without that direction.
    public var inputChannels: Result<Int, SessionError>
    public var maximumInputChannels: Result<Int, SessionError>
    public var inputLatency: Result<Double, SessionError>
    public var outputChannels: Result<Int, SessionError>
    public var maximumOutputChannels: Result<Int, SessionError>
    public var outputLatency: Result<Double, SessionError>
    /// HW6.
    public var inputGain: Double
    public var isInputGainSettable: Bool
    /// SO6: the app's system sounds are silent now — the silent switch is on (D2) or a system call
    /// is active (I4). (What the device's system-sound server would know; the app learns no more.)
    public var systemSoundsSilenced = false

    /// Every field, as read; for decoders (the wire) and tests.
    public init(
        app: AppID,
        category: Category,
        mode: Mode,
        categoryOptions: CategoryOptions,
        isActive: Bool,
        appState: AppState,
        isOutputRunning: Bool,
        isInputRunning: Bool,
        isInterrupted: Bool,
        currentRoute: Route,
        availableInputs: [Port],
        preferredInput: String?,
        overridesToSpeaker: Bool,
        outputGain: Double,
        recordsSilence: Bool,
        isOtherAudioPlaying: Bool,
        secondaryAudioShouldBeSilencedHint: Bool,
        recordPermission: RecordPermission,
        isInputAvailable: Bool,
        outputVolume: Double,
        isHardwareCodecAvailable: Bool,
        preferences: HardwarePreferences,
        sampleRate: Double,
        ioBufferDuration: Double,
        inputChannels: Result<Int, SessionError>,
        maximumInputChannels: Result<Int, SessionError>,
        inputLatency: Result<Double, SessionError>,
        outputChannels: Result<Int, SessionError>,
        maximumOutputChannels: Result<Int, SessionError>,
        outputLatency: Result<Double, SessionError>,
        inputGain: Double,
        isInputGainSettable: Bool
    ) {
        self.app = app
        self.category = category
        self.mode = mode
        self.categoryOptions = categoryOptions
        self.isActive = isActive
        self.appState = appState
        self.isOutputRunning = isOutputRunning
        self.isInputRunning = isInputRunning
        self.isInterrupted = isInterrupted
        self.currentRoute = currentRoute
        self.availableInputs = availableInputs
        self.preferredInput = preferredInput
        self.overridesToSpeaker = overridesToSpeaker
        self.outputGain = outputGain
        self.recordsSilence = recordsSilence
        self.isOtherAudioPlaying = isOtherAudioPlaying
        self.secondaryAudioShouldBeSilencedHint = secondaryAudioShouldBeSilencedHint
        self.recordPermission = recordPermission
        self.isInputAvailable = isInputAvailable
        self.outputVolume = outputVolume
        self.isHardwareCodecAvailable = isHardwareCodecAvailable
        self.preferences = preferences
        self.sampleRate = sampleRate
        self.ioBufferDuration = ioBufferDuration
        self.inputChannels = inputChannels
        self.maximumInputChannels = maximumInputChannels
        self.inputLatency = inputLatency
        self.outputChannels = outputChannels
        self.maximumOutputChannels = maximumOutputChannels
        self.outputLatency = outputLatency
        self.inputGain = inputGain
        self.isInputGainSettable = isInputGainSettable
    }
}
