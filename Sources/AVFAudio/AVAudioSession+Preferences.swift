import AudioSession
import AudioSessionModel
import Foundation

/// What `AVAudioSession` keeps beside the client-library session.
struct Extras {
    var routeSharingPolicy: AVAudioSession.RouteSharingPolicy = .default
    var highQualityBluetooth = false
    var allowHapticsAndSystemSoundsDuringRecording = false
    var prefersNoInterruptionsFromSystemAlerts = false
    var prefersInterruptionOnRouteDisconnect = true
    var prefersEchoCancelledInput = false
    var supportsMultichannelContent = false
    var aggregatedIO: AVAudioSession.IOType = .notApplicable
    var preferredInputOrientation: AVAudioSession.StereoOrientation = .none
    /// What the last notification left, to tell `inputIsAvailableChanged` and
    /// `availableInputsChangeNotification` when they change.
    var inputAvailable: Bool?
    var availableInputs: [String]?
}

// The rest of Apple's surface. Each answer is the true one for this system; where a preference
// has no rule behind it here, it is kept and read back, and its documentation says what it
// changes (docs/avfaudio.md lists every symbol).
extension AVAudioSession {
    /// C1: every category this system offers.
    public var availableCategories: [Category] { EngineCategory.allCases.map(Category.init) }

    /// M1: every mode this system offers.
    public var availableModes: [Mode] { EngineMode.allCases.map(Mode.init) }

    /// The policy of the last `setCategory` (`default` unless one was given).
    public var routeSharingPolicy: RouteSharingPolicy { extras.withLock { $0.routeSharingPolicy } }

    /// Kept and read back. There are no haptics or system sounds on this system, so recording
    /// is never interrupted by them either way.
    public var allowHapticsAndSystemSoundsDuringRecording: Bool {
        extras.withLock { $0.allowHapticsAndSystemSoundsDuringRecording }
    }

    public func setAllowHapticsAndSystemSoundsDuringRecording(_ inValue: Bool) throws {
        extras.withLock { $0.allowHapticsAndSystemSoundsDuringRecording = inValue }
    }

    /// Kept and read back. This system has no call banners: its system alerts are the call,
    /// alarm and Siri sessions of I4, which interrupt whatever this says.
    public var prefersNoInterruptionsFromSystemAlerts: Bool { extras.withLock { $0.prefersNoInterruptionsFromSystemAlerts } }

    public func setPrefersNoInterruptionsFromSystemAlerts(_ inValue: Bool) throws {
        extras.withLock { $0.prefersNoInterruptionsFromSystemAlerts = inValue }
    }

    /// Kept and read back (default `true`). A disconnected route is a route change here
    /// (RT11: `oldDeviceUnavailable`), never an interruption, whatever this says.
    public var prefersInterruptionOnRouteDisconnect: Bool { extras.withLock { $0.prefersInterruptionOnRouteDisconnect } }

    public func setPrefersInterruptionOnRouteDisconnect(_ inValue: Bool) throws {
        extras.withLock { $0.prefersInterruptionOnRouteDisconnect = inValue }
    }

    /// No input here offers echo cancellation: always `false`.
    public var isEchoCancelledInputAvailable: Bool { false }
    /// Always `false` (none is available).
    public var isEchoCancelledInputEnabled: Bool { false }
    /// Kept and read back.
    public var prefersEchoCancelledInput: Bool { extras.withLock { $0.prefersEchoCancelledInput } }

    public func setPrefersEchoCancelledInput(_ value: Bool) throws {
        extras.withLock { $0.prefersEchoCancelledInput = value }
    }

    /// Kept and read back; output here is the route's channels (HW4), never spatialised.
    public var supportsMultichannelContent: Bool { extras.withLock { $0.supportsMultichannelContent } }

    public func setSupportsMultichannelContent(_ inValue: Bool) throws {
        extras.withLock { $0.supportsMultichannelContent = inValue }
    }

    /// Every output here renders plain mono or stereo.
    public var renderingMode: RenderingMode { .monoStereo }

    /// No other app speaks prompts (navigation, Siri) over this system, so apps prompt normally.
    public var promptStyle: PromptStyle { .normal }

    /// Kept; input and output always run on one aggregated device clock here.
    public func setAggregatedIOPreference(_ inIOType: IOType) throws {
        extras.withLock { $0.aggregatedIO = inIOType }
    }

    // MARK: Data sources (RT12)

    /// RT12: the current input's data sources, `nil` when it has none.
    public var inputDataSources: [AVAudioSessionDataSourceDescription]? { currentRoute.inputs.first?.dataSources }

    /// RT12: the current input's selected data source.
    public var inputDataSource: AVAudioSessionDataSourceDescription? { currentRoute.inputs.first?.selectedDataSource }

    /// RT12: selects a data source of the current input (`nil` keeps the current one).
    public func setInputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard let dataSource else { return }
        try bridge { () throws(SessionError) in try session.setInputDataSource(dataSource.dataSourceName) }
    }

    /// No output port here has data sources: `nil`.
    public var outputDataSources: [AVAudioSessionDataSourceDescription]? { nil }
    public var outputDataSource: AVAudioSessionDataSourceDescription? { nil }

    /// `nil` is accepted; any data source is -50 (no output has any).
    public func setOutputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard let dataSource else { return }
        throw SessionError(.badParam, "RT12: no output port has data sources; \(dataSource.dataSourceName) is not one").nsError
    }

    // MARK: Channels and orientation (HW4)

    /// HW4: the preferred number of input channels, 0 when none was set.
    public var preferredInputNumberOfChannels: Int { session.preferredInputNumberOfChannels ?? 0 }
    /// HW4: the preferred number of output channels, 0 when none was set.
    public var preferredOutputNumberOfChannels: Int { session.preferredOutputNumberOfChannels ?? 0 }

    /// Kept and read back; no input here is a stereo array that turns with the device.
    public var preferredInputOrientation: StereoOrientation { extras.withLock { $0.preferredInputOrientation } }
    /// No input here has an orientation: `none`.
    public var inputOrientation: StereoOrientation { .none }

    public func setPreferredInputOrientation(_ orientation: StereoOrientation) throws {
        extras.withLock { $0.preferredInputOrientation = orientation }
    }
}
