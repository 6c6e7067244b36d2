import AudioSession
import AudioSessionModel
import Foundation

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

    private static let shared = AVAudioSession(wrapping: .shared)

    /// The app's session (`AudioSession.shared` underneath).
    open class func sharedInstance() -> AVAudioSession { shared }

    /// A session over a given client-library session (tests, several apps in one process).
    public init(wrapping session: AudioSession) {
        self.session = session
        super.init()
        session.postsToNotificationCenter = false  // posted here, with this object
        session.addNotificationHandler { [weak self] notification in self?.post(notification) }
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
        guard let value = category.value else {
            throw SessionError(.badParam, "C9: \(category.rawValue) is not a category").nsError
        }
        guard let modeValue = mode.value else { throw SessionError(.badParam, "M1: \(mode.rawValue) is not a mode").nsError }
        try bridge { () throws(SessionError) in try session.setCategory(value, mode: modeValue, options: options.value) }
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
    open var categoryOptions: CategoryOptions { CategoryOptions(session.categoryOptions) }

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
