import AudioSessionClient
import AudioSessionModel
import AudioSessionSound
import CAudioSessionServices
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// An I/O unit (SO5): RemoteIO or VoiceProcessingIO. Bus 0 is the speaker, which the app's render
/// callback fills, played through the one playback path; bus 1 the microphone, recorded through
/// the one recording path and handed to the app's input callback (AudioUnitRender copies it).
/// Everything it holds is its serial queue's, the thread the callbacks run on; it ticks once per
/// IO buffer duration and asks for that many frames each time.
final class CAudioUnit: @unchecked Sendable {
    /// The components offered: the two I/O units and (SO9) the converter unit (`CConverterUnit`).
    enum Kind: CaseIterable {
        case remoteIO, voiceProcessingIO, converter

        var type: UInt32 { UInt32(self == .converter ? kAudioUnitType_FormatConverter : kAudioUnitType_Output) }

        var subType: UInt32 {
            switch self {
            case .remoteIO: UInt32(kAudioUnitSubType_RemoteIO)
            case .voiceProcessingIO: UInt32(kAudioUnitSubType_VoiceProcessingIO)
            case .converter: UInt32(kAudioUnitSubType_AUConverter)
            }
        }

        /// SO9: Apple's names (AudioComponentCopyName).
        var name: StaticString {
            switch self {
            case .remoteIO: "Apple: AURemoteIO"
            case .voiceProcessingIO: "Apple: AUVoiceProcessingIO"
            case .converter: "Apple: AUConverter"
            }
        }
    }

    struct Listener {
        let procedure: AudioUnitPropertyListenerProc
        let userData: UnsafeMutableRawPointer?
        let property: AudioUnitPropertyID
    }

    let kind: Kind
    let handle: AudioUnit
    let session: AudioSession
    let thread = CallbackThread(label: "audiosession.audio-unit")
    var ticker: Ticker { thread.ticker }
    var notifications: NotificationHandlerToken?

    // The queue's.
    var outputEnabled = true
    var inputEnabled = false
    private(set) var outputFormat: CPCMFormat
    private(set) var inputFormat: CPCMFormat
    var renderCallback: AURenderCallbackStruct?
    var inputCallback: AURenderCallbackStruct?
    var maximumFrames: UInt32 = 4096
    var settings: [AudioUnitPropertyID: UInt32] = [:]  // ShouldAllocateBuffer, the voice-processing switches
    var initialized = false
    var running = false
    var listeners: [Listener] = []
    var output: SampleOutput?
    var input: SampleInput?
    var recorded: [Float] = []
    var inputTaken = false
    var outputTime: Double = 0
    /// Frames the output takes and has not been given yet (the simulated device's clock counts on).
    var budget = 0
    var inputTime: Double = 0
    var inputScratch: UnsafeMutableRawPointer?
    var inputScratchBytes = 0
    var renderScratch: UnsafeMutableRawPointer?
    var renderScratchBytes = 0

    init(kind: Kind, session: AudioSession, handle: AudioUnit) {
        self.kind = kind
        self.session = session
        self.handle = handle
        // The hardware's rate (HW1), float, interleaved: stereo out, mono in, until the app sets its own.
        let rate = min(192_000, max(8_000, session.sampleRate > 0 ? session.sampleRate : 48_000))
        outputFormat = CPCMFormat(sampleRate: Int(rate), channels: 2, isFloat: true)
        inputFormat = CPCMFormat(sampleRate: Int(rate), channels: 1, isFloat: true)
        notifications = session.addNotificationHandler { [weak self] notification in
            guard case .interruptionBegan = notification, let self else { return }
            self.thread.async { self.halt() }  // I1: stopped; the app starts it again after the end
        }
    }

    /// Runs `body` on the callback thread: in place from a callback, else waiting its turn.
    func sync<T>(_ body: () throws(CStatus) -> T) throws(CStatus) -> T { try thread.sync(body) }

    // MARK: Properties

    static let invalidProperty = CStatus(Int(kAudioUnitErr_InvalidProperty))
    static let invalidElement = CStatus(Int(kAudioUnitErr_InvalidElement))

    /// A property's value as bytes (Get), or nil when the unit has no such property there.
    func property(_ id: AudioUnitPropertyID, scope: AudioUnitScope, element: AudioUnitElement) throws(CStatus) -> [UInt8] {
        try sync { () throws(CStatus) in
            switch Int(id) {
            case kAudioOutputUnitProperty_EnableIO:
                guard element <= 1 else { throw Self.invalidElement }
                return Self.bytes(of: UInt32(element == 0 ? (outputEnabled ? 1 : 0) : (inputEnabled ? 1 : 0)))
            case kAudioUnitProperty_StreamFormat:
                guard element <= 1 else { throw Self.invalidElement }
                // The app's side (bus 0's input, bus 1's output) is what it set; the other the hardware's.
                return Self.bytes(of: (element == 0 ? outputFormat : inputFormat).description)
            case kAudioUnitProperty_SampleRate:  // SO9: that bus's stream format's rate, on any scope
                guard element <= 1 else { throw Self.invalidElement }
                return Self.bytes(of: Float64((element == 0 ? outputFormat : inputFormat).sampleRate))
            case kAudioUnitProperty_MaximumFramesPerSlice:
                return Self.bytes(of: maximumFrames)
            case kAudioOutputUnitProperty_IsRunning:
                return Self.bytes(of: UInt32(running ? 1 : 0))
            case kAudioUnitProperty_ShouldAllocateBuffer:
                return Self.bytes(of: settings[id] ?? 1)
            case kAUVoiceIOProperty_BypassVoiceProcessing, kAUVoiceIOProperty_VoiceProcessingEnableAGC,
                kAUVoiceIOProperty_MuteOutput:
                guard kind == .voiceProcessingIO else { throw Self.invalidProperty }
                return Self.bytes(of: settings[id] ?? (Int(id) == kAUVoiceIOProperty_VoiceProcessingEnableAGC ? 1 : 0))
            default:
                throw Self.invalidProperty
            }
        }
    }

    func setProperty(
        _ id: AudioUnitPropertyID, scope: AudioUnitScope, element: AudioUnitElement, _ data: UnsafeRawPointer, size: Int
    )
        throws(CStatus)
    {
        func value<T>(_ type: T.Type) throws(CStatus) -> T {
            guard size == MemoryLayout<T>.size else { throw CStatus(Int(kAudio_ParamError)) }
            return data.loadUnaligned(as: T.self)
        }
        try sync { () throws(CStatus) in
            switch Int(id) {
            case kAudioOutputUnitProperty_EnableIO:
                guard element <= 1 else { throw Self.invalidElement }
                guard !initialized else { throw CStatus(Int(kAudioUnitErr_Initialized)) }
                let on = try value(UInt32.self) != 0
                if element == 0 { outputEnabled = on } else { inputEnabled = on }
            case kAudioUnitProperty_StreamFormat:
                guard element <= 1 else { throw Self.invalidElement }
                let format: CPCMFormat
                do throws(CStatus) {
                    format = try CPCMFormat(try value(AudioStreamBasicDescription.self))
                } catch { throw CStatus(Int(kAudioUnitErr_FormatNotSupported)) }
                guard !running else { throw CStatus(Int(kAudioUnitErr_CannotDoInCurrentContext)) }
                if element == 0 { outputFormat = format } else { inputFormat = format }
            case kAudioUnitProperty_SampleRate:  // SO9: the bus's stream format at this rate
                guard element <= 1 else { throw Self.invalidElement }
                let rate = try value(Float64.self)
                guard (8_000...192_000).contains(rate) else { throw CStatus(Int(kAudioUnitErr_FormatNotSupported)) }
                guard !running else { throw CStatus(Int(kAudioUnitErr_CannotDoInCurrentContext)) }
                let old = element == 0 ? outputFormat : inputFormat
                let format = CPCMFormat(sampleRate: Int(rate), channels: old.channels, isFloat: old.isFloat)
                if element == 0 { outputFormat = format } else { inputFormat = format }
            case kAudioUnitProperty_SetRenderCallback:
                renderCallback = try value(AURenderCallbackStruct.self)
            case kAudioOutputUnitProperty_SetInputCallback:
                inputCallback = try value(AURenderCallbackStruct.self)
            case kAudioUnitProperty_MaximumFramesPerSlice:
                let frames = try value(UInt32.self)
                guard frames > 0 else { throw CStatus(Int(kAudio_ParamError)) }
                maximumFrames = frames
            case kAudioUnitProperty_ShouldAllocateBuffer:
                settings[id] = try value(UInt32.self)
            case kAUVoiceIOProperty_BypassVoiceProcessing, kAUVoiceIOProperty_VoiceProcessingEnableAGC,
                kAUVoiceIOProperty_MuteOutput:
                guard kind == .voiceProcessingIO else { throw Self.invalidProperty }
                settings[id] = try value(UInt32.self)
            default:
                throw Self.invalidProperty
            }
        }
    }

    static func bytes<T>(of value: T) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    func addListener(_ listener: Listener) throws(CStatus) {
        try sync { () throws(CStatus) in listeners.append(listener) }
    }

    func removeListener(
        _ procedure: AudioUnitPropertyListenerProc, userData: UnsafeMutableRawPointer?, property: AudioUnitPropertyID
    )
        throws(CStatus)
    {
        try sync { () throws(CStatus) in
            listeners.removeAll {
                $0.property == property && $0.userData == userData
                    && unsafeBitCast($0.procedure, to: UnsafeRawPointer.self)
                        == unsafeBitCast(procedure, to: UnsafeRawPointer.self)
            }
        }
    }

    func tellRunning() {
        for listener in listeners where Int(listener.property) == kAudioOutputUnitProperty_IsRunning {
            listener.procedure(listener.userData, handle, listener.property, AudioUnitScope(kAudioUnitScope_Global), 0)
        }
    }

    // MARK: Life

    func initialize() throws(CStatus) {
        try sync { () throws(CStatus) in
            guard outputEnabled || inputEnabled else { throw CStatus(Int(kAudioUnitErr_FailedInitialization)) }
            initialized = true
        }
    }

    func uninitialize() throws(CStatus) {
        try sync { () throws(CStatus) in
            halt()
            close()
            initialized = false
        }
    }

    /// The frames each callback is asked for: the session's IO buffer duration (HW2), fixed when
    /// the unit starts (as the ticker's period is), so a tick never reads the session's state.
    var sliceFrames = 0

    var sliceFramesNow: Int {
        let frames = Int(
            (session.ioBufferDuration * Double(outputEnabled ? outputFormat.sampleRate : inputFormat.sampleRate)).rounded())
        return min(Int(maximumFrames), max(16, frames))
    }

    /// IO1: the session's output (and input) start with the unit; refused, nothing runs.
    func start() throws(CStatus) {
        try sync { () throws(CStatus) in
            guard initialized else { throw CStatus(Int(kAudioUnitErr_Uninitialized)) }
            guard !running else { return }
            do throws(SessionError) {
                if outputEnabled { try session.reportOutputRunning(true) }
                if inputEnabled { try session.reportInputRunning(true) }
            } catch {
                stopReporting()
                throw CStatus(error)
            }
            do throws(MediaError) {
                try open()
            } catch {
                stopReporting()
                throw CStatus(Int(kAudioUnitErr_FailedInitialization))
            }
            output?.cork(false)
            input?.cork(false)
            running = true
            sliceFrames = sliceFramesNow
            let seconds = Double(sliceFrames) / Double(outputEnabled ? outputFormat.sampleRate : inputFormat.sampleRate)
            ticker.period = .microseconds(max(2_000, Int(seconds * 1_000_000)))
            ticker.start { [weak self] in self?.tick() }
            tellRunning()
        }
    }

    func open() throws(MediaError) {
        let app = session.appID.rawValue
        // VoiceProcessingIO: the phone role, and the server's echo cancellation where it has it.
        let role = kind == .voiceProcessingIO ? "phone" : session.streamRole
        if outputEnabled, output == nil {
            output = try SampleOutput(
                endpoint: .automatic, app: app, role: role, channels: outputFormat.channels,
                sampleRate: outputFormat.sampleRate, bufferDuration: session.ioBufferDuration,
                echoCancelled: kind == .voiceProcessingIO)
        }
        if inputEnabled, input == nil {
            input = try SampleInput(
                endpoint: .automatic, app: app, channels: inputFormat.channels, sampleRate: inputFormat.sampleRate,
                bufferDuration: session.ioBufferDuration, echoCancelled: kind == .voiceProcessingIO)
        }
    }

    func stop() throws(CStatus) {
        try sync { () throws(CStatus) in halt() }
    }

    func halt() {
        guard running else { return }
        running = false
        ticker.stop()
        output?.flush()
        output?.cork(true)
        input?.cork(true)
        recorded.removeAll()
        budget = 0
        stopReporting()
        tellRunning()
    }

    func stopReporting() {
        if outputEnabled { try? session.reportOutputRunning(false) }
        if inputEnabled { try? session.reportInputRunning(false) }
    }

    func close() {
        output?.close()
        (output, input) = (nil, nil)
    }

    func dispose() {
        _ = try? sync { () throws(CStatus) in
            halt()
            close()
            listeners.removeAll()
            free(renderScratch)
            free(inputScratch)
            (renderScratch, inputScratch) = (nil, nil)
        }
        if let notifications { session.removeNotificationHandler(notifications) }
    }
}
