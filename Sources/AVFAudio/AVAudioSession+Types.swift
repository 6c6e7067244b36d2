import AudioSession
import AudioSessionModel

typealias EngineCategory = AudioSessionModel.Category
typealias EngineMode = AudioSessionModel.Mode
typealias EngineOptions = AudioSessionModel.CategoryOptions

// Apple's nested types with Apple's raw values (SPEC §1–3, §12, §13). Each converts to and
// from the client library's type; nothing here decides anything.

extension AVAudioSession {
    /// A category, by Apple's raw name ("AVAudioSessionCategoryPlayback").
    public struct Category: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ambient = Category(.ambient)
        public static let soloAmbient = Category(.soloAmbient)
        public static let playback = Category(.playback)
        public static let record = Category(.record)
        public static let playAndRecord = Category(.playAndRecord)
        public static let audioProcessing = Category(.audioProcessing)
        public static let multiRoute = Category(.multiRoute)

        init(_ category: EngineCategory) { rawValue = category.rawName }

        /// The library's category; `nil` for a raw name no category has.
        var value: EngineCategory? { EngineCategory.allCases.first { $0.rawName == rawValue } }
    }

    /// A mode, by Apple's raw name ("AVAudioSessionModeSpokenAudio").
    public struct Mode: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let `default` = Mode(.default)
        public static let voiceChat = Mode(.voiceChat)
        public static let gameChat = Mode(.gameChat)
        public static let videoChat = Mode(.videoChat)
        public static let videoRecording = Mode(.videoRecording)
        public static let measurement = Mode(.measurement)
        public static let moviePlayback = Mode(.moviePlayback)
        public static let spokenAudio = Mode(.spokenAudio)
        public static let voicePrompt = Mode(.voicePrompt)

        init(_ mode: EngineMode) { rawValue = mode.rawName }

        var value: EngineMode? { EngineMode.allCases.first { $0.rawName == rawValue } }
    }

    /// A port type, by Apple's raw value ("Headphones").
    public struct Port: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let builtInReceiver = Port(.receiver)
        public static let builtInSpeaker = Port(.speaker)
        public static let builtInMic = Port(.microphoneBuiltIn)
        public static let headphones = Port(.headphones)
        public static let headsetMic = Port(.microphoneWired)
        public static let bluetoothA2DP = Port(.bluetoothA2DPOutput)
        public static let bluetoothHFP = Port(.bluetoothHFP)
        public static let usbAudio = Port(.usbAudio)
        public static let HDMI = Port(.hdmiOutput)
        public static let lineOut = Port(.lineOut)
        public static let lineIn = Port(.lineIn)
        public static let airPlay = Port(.airPlay)
        public static let carAudio = Port(.carAudio)
        // Port types this system never reports (no such hardware is mapped to a port here); the
        // constants exist so code that compares against them builds and reads false.
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        public static let AVB = Port(rawValue: "AVB")
        public static let PCI = Port(rawValue: "PCI")
        public static let displayPort = Port(rawValue: "DisplayPort")
        public static let fireWire = Port(rawValue: "FireWire")
        public static let thunderbolt = Port(rawValue: "Thunderbolt")
        public static let virtual = Port(rawValue: "Virtual")
        public static let continuityMicrophone = Port(rawValue: "ContinuityMicrophone")

        init(_ type: PortType) { rawValue = type.rawValue }
    }

    /// Category options with Apple's bits.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let mixWithOthers = CategoryOptions(.mixWithOthers)
        public static let duckOthers = CategoryOptions(.duckOthers)
        public static let allowBluetooth = CategoryOptions(.allowBluetooth)
        /// The newest SDK's name for `allowBluetooth` (the same bit).
        public static let allowBluetoothHFP = allowBluetooth
        public static let defaultToSpeaker = CategoryOptions(.defaultToSpeaker)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(.interruptSpokenAudioAndMixWithOthers)
        public static let allowBluetoothA2DP = CategoryOptions(.allowBluetoothA2DP)
        public static let allowAirPlay = CategoryOptions(.allowAirPlay)
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(.overrideMutedMicrophoneInterruption)
        /// Full-bandwidth Bluetooth recording where the route supports it, else HFP. No Bluetooth
        /// route here records in high quality, so it changes nothing, as on iOS with such a
        /// route; it is accepted where iOS accepts it (record and playAndRecord, default mode)
        /// and reads back in `categoryOptions`.
        public static let bluetoothHighQualityRecording = CategoryOptions(rawValue: 1 << 19)

        init(_ options: EngineOptions) { rawValue = UInt(options.rawValue) }

        var value: EngineOptions {
            EngineOptions(rawValue: UInt32(truncatingIfNeeded: rawValue))
        }
    }

    /// Options of `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// `AVAudioSessionInterruptionTypeKey` values.
    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    /// `AVAudioSessionInterruptionOptionKey` values.
    public struct InterruptionOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// `AVAudioSessionInterruptionReasonKey` values. This system sends `default` and
    /// `builtInMicMuted` (I7); the others exist for code that switches over them.
    public enum InterruptionReason: UInt, Sendable {
        case `default` = 0
        case appWasSuspended = 1
        case builtInMicMuted = 2
        case sceneWasBackgrounded = 3
        case routeDisconnected = 4
    }

    /// `AVAudioSessionRouteChangeReasonKey` values.
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// `AVAudioSessionSilenceSecondaryAudioHintTypeKey` values.
    public enum SilenceSecondaryAudioHintType: UInt, Sendable {
        case begin = 1
        case end = 0
    }

    /// `recordPermission` values (four-character codes).
    public enum RecordPermission: UInt, Sendable {
        case undetermined = 1_970_168_948
        case denied = 1_684_369_017
        case granted = 1_735_552_628
    }

    /// `overrideOutputAudioPort(_:)` values.
    public enum PortOverride: UInt, Sendable {
        case none = 0
        case speaker = 1_936_747_378
    }

    /// The `NSOSStatusErrorDomain` codes of SPEC §12.
    public enum ErrorCode: Int, Sendable {
        case none = 0
        case mediaServicesFailed = 1_836_282_486
        case isBusy = 560_030_580
        case incompatibleCategory = 560_161_140
        case cannotInterruptOthers = 560_557_684
        case missingEntitlement = 1_701_737_535
        case siriIsRecording = 1_936_290_409
        case cannotStartPlaying = 561_015_905
        case cannotStartRecording = 561_145_187
        case badParam = -50
        case insufficientPriority = 561_017_449
        case resourceNotAvailable = 561_145_203
        case unspecified = 2_003_329_396
        case expiredSession = 561_210_739  // '!ses'
        case sessionNotActive = 1_768_841_571  // 'inac'
    }

    /// How a session's audio is routed with respect to other apps (`setCategory(_:mode:policy:options:)`).
    public enum RouteSharingPolicy: UInt, Sendable {
        case `default` = 0
        case longFormAudio = 1
        case independent = 2
        case longFormVideo = 3
        /// The earlier name of `longFormAudio`.
        public static let longForm = RouteSharingPolicy.longFormAudio
    }

    /// `setAggregatedIOPreference(_:)` values.
    public enum IOType: UInt, Sendable {
        case notApplicable = 0
        case aggregated = 1
    }

    /// `promptStyle` values (four-character codes).
    public enum PromptStyle: UInt, Sendable {
        case none = 1_852_796_517  // 'none'
        case short = 1_936_224_884  // 'shrt'
        case normal = 1_852_992_876  // 'nrml'
    }

    /// `preferredInputOrientation` values.
    public enum StereoOrientation: Int, Sendable {
        case none = 0
        case portrait = 1
        case portraitUpsideDown = 2
        case landscapeRight = 3
        case landscapeLeft = 4
    }

    /// `renderingMode` values.
    public enum RenderingMode: Int, Sendable {
        case notApplicable = 0
        case monoStereo = 1
        case surround = 2
        case spatialAudio = 3
        case dolbyAudio = 4
        case dolbyAtmos = 5
    }

    /// A data source's location (`AVAudioSessionDataSourceDescription.location`).
    public struct Location: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let lower = Location(rawValue: "Lower")
        public static let upper = Location(rawValue: "Upper")
    }

    /// A data source's orientation (`AVAudioSessionDataSourceDescription.orientation`).
    public struct Orientation: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let top = Orientation(rawValue: "Top")
        public static let bottom = Orientation(rawValue: "Bottom")
        public static let front = Orientation(rawValue: "Front")
        public static let back = Orientation(rawValue: "Back")
        public static let left = Orientation(rawValue: "Left")
        public static let right = Orientation(rawValue: "Right")
    }

    /// A data source's polar pattern.
    public struct PolarPattern: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let omnidirectional = PolarPattern(rawValue: "Omnidirectional")
        public static let cardioid = PolarPattern(rawValue: "Cardioid")
        public static let subcardioid = PolarPattern(rawValue: "Subcardioid")
        public static let stereo = PolarPattern(rawValue: "Stereo")
    }
}
