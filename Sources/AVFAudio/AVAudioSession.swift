import AudioSession
import AudioSessionModel
import Foundation
import Synchronization

/// Apple's `AVAudioSession` on Linux: the same names, shapes and raw values over the
/// `AudioSession` client library, which does the work (embedded, or `audiosessiond` when
/// `AUDIOSESSION_SOCKET` is set). Errors are `NSError`s in `NSOSStatusErrorDomain` with SPEC
/// §12's codes; notifications are posted on `NotificationCenter.default` with this session as
/// the object, from the session's serial event queue.
///
/// `@unchecked Sendable`: every stored property is a constant and the wrapped `AudioSession`
/// is `Sendable`.
open class AVAudioSession: NSObject, @unchecked Sendable {
    /// The client-library session this one speaks for.
    public let session: AudioSession
    /// What this wrapper keeps beside the session: the preferences with no engine rule behind
    /// them, the delegate, and what the last route change left (AVAudioSession+Preferences.swift).
    let extras = Mutex(Extras())
    let delegateBox = DelegateBox()

    private static let shared = AVAudioSession(wrapping: .shared)

    /// The app's session (`AudioSession.shared` underneath).
    open class func sharedInstance() -> AVAudioSession { shared }

    /// A session over a given client-library session (tests, several apps in one process).
    public init(wrapping session: AudioSession) {
        self.session = session
        super.init()
        // Posted here, with this object, on the thread N4 gives each notification.
        session.replacePoster { [weak self] _, notification in self?.post(notification) }
        AudioSession.installMainRunLoopTurn()
    }

    /// Runs a library call, turning its error into the `NSError` iOS code expects.
    func bridge<T>(_ body: () throws(SessionError) -> T) throws -> T {
        do { return try body() } catch { throw error.nsError }
    }

    // MARK: Category, mode, activation (C, O, M, A)

    open func setCategory(_ category: Category) throws {
        try setCategory(category, mode: .default, options: [])
    }

    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        try setCategory(category, mode: .default, options: options)
    }

    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, policy: .default, options: options)
    }

    /// C9, O1, M1 with a route sharing policy. `independent` is refused (-50), as on iOS;
    /// `longFormAudio` and `longFormVideo` need the playback category and no options, as on iOS.
    /// The policy is kept and reads back in
    /// `routeSharingPolicy`; it routes nothing differently here, where every app shares the
    /// device's one route (there are no AirPlay route-sharing destinations).
    open func setCategory(_ category: Category, mode: Mode, policy: RouteSharingPolicy, options: CategoryOptions = []) throws {
        guard let value = category.value else {
            throw SessionError(.badParam, "C9: \(category.rawValue) is not a category").nsError
        }
        guard let modeValue = mode.value else { throw SessionError(.badParam, "M1: \(mode.rawValue) is not a mode").nsError }
        switch policy {
        case .independent:
            throw SessionError(.badParam, "the independent route sharing policy is not available for apps").nsError
        case .longFormAudio, .longFormVideo:
            guard category == .playback, options.isEmpty else {
                throw SessionError(
                    .badParam, "the long-form route sharing policies need the playback category and no options"
                ).nsError
            }
        case .default:
            break
        }
        let highQuality = options.contains(.bluetoothHighQualityRecording)
        if highQuality, !(category == .record || category == .playAndRecord) || mode != .default {
            throw SessionError(
                .badParam, "O1: bluetoothHighQualityRecording needs the record or playAndRecord category and the default mode"
            ).nsError
        }
        let engineOptions = options.subtracting(.bluetoothHighQualityRecording).value
        try bridge { () throws(SessionError) in try session.setCategory(value, mode: modeValue, options: engineOptions) }
        extras.withLock { extras in
            extras.routeSharingPolicy = policy
            extras.highQualityBluetooth = highQuality
        }
    }

    open func setMode(_ mode: Mode) throws {
        guard let value = mode.value else { throw SessionError(.badParam, "M1: \(mode.rawValue) is not a mode").nsError }
        try bridge { () throws(SessionError) in try session.setMode(value) }
    }

    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        let options = AudioSessionModel.SetActiveOptions(rawValue: UInt32(truncatingIfNeeded: options.rawValue))
        try bridge { () throws(SessionError) in try session.setActive(active, options: options) }
    }

    open var category: Category { Category(session.category) }
    open var mode: Mode { Mode(session.mode) }
    open var categoryOptions: CategoryOptions {
        let extra: CategoryOptions = extras.withLock { $0.highQualityBluetooth } ? .bluetoothHighQualityRecording : []
        return CategoryOptions(session.categoryOptions).union(extra)
    }

    // MARK: Routes (RT)

    open var currentRoute: AVAudioSessionRouteDescription {
        AVAudioSessionRouteDescription(session.currentRoute, session: session)
    }

    open var availableInputs: [AVAudioSessionPortDescription]? {
        session.availableInputs.map { AVAudioSessionPortDescription($0, isInput: true, session: session) }
    }

    open var preferredInput: AVAudioSessionPortDescription? {
        guard let uid = session.preferredInput else { return nil }
        return availableInputs?.first { $0.uid == uid }
    }

    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        try bridge { () throws(SessionError) in try session.setPreferredInput(inPort?.uid) }
    }

    open func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
        let value: AudioSessionModel.PortOverride = portOverride == .speaker ? .speaker : .none
        try bridge { () throws(SessionError) in try session.overrideOutputAudioPort(value) }
    }

    // MARK: Hardware (HW)

    open var preferredSampleRate: Double { session.preferredSampleRate ?? 0 }
    open var sampleRate: Double { session.sampleRate }
    open var preferredIOBufferDuration: TimeInterval { session.preferredIOBufferDuration ?? 0 }
    open var ioBufferDuration: TimeInterval { session.ioBufferDuration }
    open var inputNumberOfChannels: Int { session.inputNumberOfChannels }
    open var outputNumberOfChannels: Int { session.outputNumberOfChannels }
    open var maximumInputNumberOfChannels: Int { session.maximumInputNumberOfChannels }
    open var maximumOutputNumberOfChannels: Int { session.maximumOutputNumberOfChannels }
    open var inputLatency: TimeInterval { session.inputLatency }
    open var outputLatency: TimeInterval { session.outputLatency }
    open var inputGain: Float { Float(session.inputGain) }
    open var isInputGainSettable: Bool { session.isInputGainSettable }
    open var isInputAvailable: Bool { session.isInputAvailable }
    open var outputVolume: Float { Float(session.outputVolume) }

    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        try bridge { () throws(SessionError) in try session.setPreferredSampleRate(sampleRate) }
    }

    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        try bridge { () throws(SessionError) in try session.setPreferredIOBufferDuration(duration) }
    }

    open func setPreferredInputNumberOfChannels(_ count: Int) throws {
        try bridge { () throws(SessionError) in try session.setPreferredInputNumberOfChannels(count) }
    }

    open func setPreferredOutputNumberOfChannels(_ count: Int) throws {
        try bridge { () throws(SessionError) in try session.setPreferredOutputNumberOfChannels(count) }
    }

    open func setInputGain(_ gain: Float) throws {
        try bridge { () throws(SessionError) in try session.setInputGain(Double(gain)) }
    }

    // MARK: Other audio (OA) and permission (P)

    open var isOtherAudioPlaying: Bool { session.isOtherAudioPlaying }
    open var secondaryAudioShouldBeSilencedHint: Bool { session.secondaryAudioShouldBeSilencedHint }

    open var recordPermission: RecordPermission {
        RecordPermission(rawValue: UInt(session.recordPermission.rawValue)) ?? .undetermined
    }

    /// P2: asks once; `response` runs with the answer on the session's event queue.
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        let session = session
        Task { response(await session.requestRecordPermission()) }
    }
}
