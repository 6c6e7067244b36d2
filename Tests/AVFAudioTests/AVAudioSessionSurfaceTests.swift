import AVFAudio
import AudioSession
import AudioSessionRuntime
import Logging
import Synchronization
import Testing

/// What the newer and the deprecated members of AVAudioSession do here: true answers, errors
/// where iOS gives them, preferences read back, the delegate called (issue "Porting real iOS code").
@Suite("AVAudioSession's wider surface")
struct AVAudioSessionSurfaceTests {
    /// A session of its own simulated iPhone, and a controller to plug accessories into it.
    static func session(_ profile: DeviceProfile = .iphone) throws -> (AVAudioSession, SystemController) {
        let arbiter = try Arbiter(
            configuration: .init(profile: profile), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let session = AVAudioSession(wrapping: AudioSession(appID: "app", transport: .inProcess(arbiter)))
        return (session, try SystemController(transport: .inProcess(arbiter)))
    }

    static func code(_ body: () throws -> Void) -> Int? {
        do { try body() } catch { return (error as NSError).code }
        return nil
    }

    @Test("Route sharing policy: kept and read back; independent and misused long-form policies are -50")
    func routeSharingPolicy() throws {
        let (session, _) = try Self.session()
        #expect(session.routeSharingPolicy == .default)
        try session.setCategory(.playback, mode: .spokenAudio, policy: .longFormAudio, options: [])
        #expect(session.routeSharingPolicy == .longFormAudio && session.category == .playback && session.mode == .spokenAudio)
        #expect(AVAudioSession.RouteSharingPolicy.longForm == .longFormAudio)
        #expect(Self.code { try session.setCategory(.playback, mode: .default, policy: .independent, options: []) } == -50)
        #expect(Self.code { try session.setCategory(.playAndRecord, mode: .default, policy: .longFormVideo, options: []) } == -50)
        #expect(
            Self.code { try session.setCategory(.playback, mode: .default, policy: .longFormAudio, options: .duckOthers) } == -50)
        #expect(session.routeSharingPolicy == .longFormAudio, "a refused call changes nothing (A7)")
        try session.setCategory(.ambient)
        #expect(session.routeSharingPolicy == .default)
    }

    @Test("Available categories and modes are every one SPEC has; new Bluetooth names are aliases or read back")
    func categoriesModesAndOptions() throws {
        let (session, _) = try Self.session()
        #expect(session.availableCategories.count == 7 && session.availableCategories.contains(.multiRoute))
        #expect(session.availableModes.count == 9 && session.availableModes.contains(.voicePrompt))
        #expect(AVAudioSession.CategoryOptions.allowBluetoothHFP == .allowBluetooth)
        try session.setCategory(.playAndRecord, mode: .default, options: [.allowBluetoothHFP, .bluetoothHighQualityRecording])
        #expect(
            session.categoryOptions.contains(.bluetoothHighQualityRecording) && session.categoryOptions.contains(.allowBluetooth))
        #expect(Self.code { try session.setCategory(.playback, mode: .default, options: .bluetoothHighQualityRecording) } == -50)
        #expect(
            Self.code { try session.setCategory(.playAndRecord, mode: .voiceChat, options: .bluetoothHighQualityRecording) }
                == -50)
        try session.setCategory(.record)
        #expect(!session.categoryOptions.contains(.bluetoothHighQualityRecording), "options are not sticky (C10)")
    }

    @Test("Preferences without a rule here are kept and read back; capabilities this system lacks read false")
    func preferences() throws {
        let (session, _) = try Self.session()
        #expect(session.prefersInterruptionOnRouteDisconnect, "true by default, as on iOS")
        try session.setPrefersInterruptionOnRouteDisconnect(false)
        try session.setPrefersNoInterruptionsFromSystemAlerts(true)
        try session.setAllowHapticsAndSystemSoundsDuringRecording(true)
        try session.setSupportsMultichannelContent(true)
        try session.setPrefersEchoCancelledInput(true)
        try session.setPreferredInputOrientation(.landscapeLeft)
        #expect(!session.prefersInterruptionOnRouteDisconnect && session.prefersNoInterruptionsFromSystemAlerts)
        #expect(session.allowHapticsAndSystemSoundsDuringRecording && session.supportsMultichannelContent)
        #expect(
            session.prefersEchoCancelledInput && !session.isEchoCancelledInputAvailable && !session.isEchoCancelledInputEnabled)
        #expect(session.preferredInputOrientation == .landscapeLeft && session.inputOrientation == .none)
        #expect(session.renderingMode == .monoStereo && session.promptStyle == .normal)
        #expect(session.outputDataSources == nil && session.outputDataSource == nil)
        try session.setOutputDataSource(nil)
        try session.setCategory(.playAndRecord)
        try session.setPreferredInputNumberOfChannels(1)
        #expect(session.preferredInputNumberOfChannels == 1 && session.preferredOutputNumberOfChannels == 0)
        let input = try #require(session.currentRoute.inputs.first)
        #expect(!input.hasHardwareVoiceCallProcessing && !input.isSpatialAudioEnabled)
        #expect(input.channels?.first?.channelLabel == kAudioChannelLabel_Mono)
        #expect(
            session.currentRoute.outputs.first?.channels?.map(\.channelLabel) == [
                kAudioChannelLabel_Left, kAudioChannelLabel_Right,
            ])
        // RT12: the built-in microphone's data sources, through the session's names too.
        let sources = try #require(session.inputDataSources)
        #expect(sources.count > 1 && session.inputDataSource != nil)
        try session.setInputDataSource(sources[1])
        #expect(session.inputDataSource?.dataSourceName == sources[1].dataSourceName)
        #expect(Self.code { try sources[1].setPreferredPolarPattern(.cardioid) } == -50)
    }

    /// Records what a delegate is told.
    final class Delegate: AVAudioSessionDelegate, Sendable {
        let calls = Mutex<[String]>([])
        func beginInterruption() { calls.withLock { $0.append("begin") } }
        func endInterruption(withFlags flags: Int) { calls.withLock { $0.append("end \(flags)") } }
        func inputIsAvailableChanged(_ isInputAvailable: Bool) { calls.withLock { $0.append("input \(isInputAvailable)") } }
    }

    @Test("The deprecated delegate hears interruptions and input availability; setActive(_:withFlags:) is A6")
    func deprecatedMembers() throws {
        let (session, controller) = try Self.session()
        let delegate = Delegate()
        session.delegate = delegate
        try session.setCategory(.playAndRecord)
        try session.setActive(true, withFlags: 0)
        try controller.perform(.systemSession(.call, begin: true))
        try controller.perform(.systemSession(.call, begin: false))
        try session.session.waitForPendingNotifications()
        #expect(delegate.calls.withLock { $0 } == ["begin", "end \(AVAudioSessionInterruptionFlags_ShouldResume)"])
        #expect(session.inputIsAvailable == session.isInputAvailable && session.currentHardwareSampleRate == session.sampleRate)
        #expect(session.currentHardwareInputNumberOfChannels == session.inputNumberOfChannels)
        try session.setPreferredHardwareSampleRate(48_000)
        #expect(session.preferredHardwareSampleRate == 48_000)
        #expect(Self.code { try session.setActive(false, withFlags: 4) } == -50)
        try session.setActive(false, withFlags: AVAudioSessionSetActiveFlags_NotifyOthersOnDeactivation)
        session.delegate = nil
        try controller.perform(.plug(.usb))
        try session.session.waitForPendingNotifications()
        #expect(delegate.calls.withLock { $0 }.count == 2, "a removed delegate hears nothing")
    }

    @Test("availableInputsChangeNotification follows a microphone coming and going; the delegate hears input availability")
    func availableInputsChange() throws {
        let (session, controller) = try Self.session(.kiosk)  // no built-in microphone (SPEC §9.1)
        try session.setCategory(.playAndRecord)
        try session.setActive(true)
        let delegate = Delegate()
        session.delegate = delegate
        let posted = Mutex(0)
        let observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.availableInputsChangeNotification, object: session, queue: nil
        ) { _ in posted.withLock { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(observer) }
        // Each step heard before the next, as a person plugs things: the notification reads the
        // session as it is when it is handled.
        for event in [SystemEvent.plug(.headphones), .plug(.usb, uid: "usb-mic"), .unplug(uid: "usb-mic")] {
            try controller.perform(event)
            try session.session.waitForPendingNotifications()
        }
        #expect(posted.withLock { $0 } == 2, "the USB microphone came and went")
        #expect(delegate.calls.withLock { $0 } == ["input true", "input false"])
    }
}
