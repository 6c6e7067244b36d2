import AudioSession
import AudioSessionModel
import Foundation

/// A route: its input and output ports (RT10).
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    public let inputs: [AVAudioSessionPortDescription]
    public let outputs: [AVAudioSessionPortDescription]

    init(_ route: Route, session: AudioSession?) {
        inputs = route.inputs.map { AVAudioSessionPortDescription($0, isInput: true, session: session) }
        outputs = route.outputs.map { AVAudioSessionPortDescription($0, isInput: false, session: session) }
    }

    open override var description: String { "<AVAudioSessionRouteDescription inputs=\(inputs) outputs=\(outputs)>" }
}

/// A port of a route or of `availableInputs`.
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    public let portType: AVAudioSession.Port
    public let portName: String
    public let uid: String
    /// One channel description per channel the port offers in its direction (HW4).
    public let channels: [AVAudioSessionChannelDescription]?
    /// RT12: the port's data sources, `nil` when it has none.
    public let dataSources: [AVAudioSessionDataSourceDescription]?
    public let selectedDataSource: AVAudioSessionDataSourceDescription?
    let session: AudioSession?
    let port: AudioSessionModel.Port

    init(_ port: AudioSessionModel.Port, isInput: Bool, session: AudioSession?) {
        self.port = port
        self.session = session
        portType = AVAudioSession.Port(port.type)
        portName = port.name
        uid = port.uid
        let count = isInput ? (port.type == .microphoneBuiltIn ? 1 : 2) : 2
        channels = (1...count).map {
            AVAudioSessionChannelDescription(name: "\(port.name) \($0)", number: $0, owner: port.uid, of: count)
        }
        let sources = port.dataSources.enumerated().map { AVAudioSessionDataSourceDescription(id: $0.offset, name: $0.element) }
        dataSources = sources.isEmpty ? nil : sources
        selectedDataSource = sources.first { $0.dataSourceName == port.selectedDataSource }
    }

    /// RT12: the data source the app prefers; the selected one here.
    public var preferredDataSource: AVAudioSessionDataSourceDescription? { selectedDataSource }

    /// No port here does voice-call processing (echo cancellation, noise reduction) in hardware.
    public var hasHardwareVoiceCallProcessing: Bool { false }

    /// No output here renders spatial audio.
    public var isSpatialAudioEnabled: Bool { false }

    /// RT12: selects a data source of the current input.
    /// - Throws: `NSError` in `NSOSStatusErrorDomain` with SPEC §12's code.
    open func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
        guard let dataSource, let session else { return }
        do { try session.setInputDataSource(dataSource.dataSourceName) } catch { throw error.nsError }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionPortDescription else { return false }
        return other.uid == uid && other.portType == portType
    }

    open override var hash: Int { uid.hashValue }

    open override var description: String {
        "<AVAudioSessionPortDescription type=\(portType.rawValue) name=\(portName) uid=\(uid)>"
    }
}

/// A channel of a port.
open class AVAudioSessionChannelDescription: NSObject, @unchecked Sendable {
    public let channelName: String
    public let channelNumber: Int
    public let owningPortUID: String
    /// Core Audio's label: mono for a one-channel port, left and right for a stereo one.
    public let channelLabel: AudioChannelLabel

    init(name: String, number: Int, owner: String, of count: Int) {
        channelName = name
        channelNumber = number
        owningPortUID = owner
        channelLabel = count == 1 ? kAudioChannelLabel_Mono : (number == 1 ? kAudioChannelLabel_Left : kAudioChannelLabel_Right)
    }
}

/// Core Audio's channel labels (CoreAudioTypes), as far as ports here use them.
public typealias AudioChannelLabel = UInt32
public let kAudioChannelLabel_Unknown: AudioChannelLabel = 0xFFFF_FFFF
public let kAudioChannelLabel_Left: AudioChannelLabel = 1
public let kAudioChannelLabel_Right: AudioChannelLabel = 2
public let kAudioChannelLabel_Mono: AudioChannelLabel = 42

/// A data source of a port (RT12), e.g. the bottom microphone.
open class AVAudioSessionDataSourceDescription: NSObject, @unchecked Sendable {
    public let dataSourceID: NSNumber
    public let dataSourceName: String

    init(id: Int, name: String) {
        dataSourceID = NSNumber(value: id)
        dataSourceName = name
    }

    /// A data source here is known by its name only: no location, orientation or polar patterns.
    public var location: AVAudioSession.Location? { nil }
    public var orientation: AVAudioSession.Orientation? { nil }
    public var supportedPolarPatterns: [AVAudioSession.PolarPattern]? { nil }
    public var selectedPolarPattern: AVAudioSession.PolarPattern? { nil }
    public var preferredPolarPattern: AVAudioSession.PolarPattern? { nil }

    /// `nil` is accepted; a pattern is -50 (no data source here supports one).
    open func setPreferredPolarPattern(_ pattern: AVAudioSession.PolarPattern?) throws {
        guard let pattern else { return }
        throw SessionError(.badParam, "RT12: \(dataSourceName) has no polar patterns; \(pattern.rawValue) is not supported")
            .nsError
    }
}
