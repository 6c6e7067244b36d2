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
    enum Kind: CaseIterable {
        case remoteIO, voiceProcessingIO

        var subType: UInt32 {
            switch self {
            case .remoteIO: UInt32(kAudioUnitSubType_RemoteIO)
            case .voiceProcessingIO: UInt32(kAudioUnitSubType_VoiceProcessingIO)
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
    private let thread = CallbackThread(label: "audiosession.audio-unit")
    private var ticker: Ticker { thread.ticker }
    private var notifications: NotificationHandlerToken?

    // The queue's.
    private var outputEnabled = true
    private var inputEnabled = false
    private(set) var outputFormat: CPCMFormat
    private(set) var inputFormat: CPCMFormat
    private var renderCallback: AURenderCallbackStruct?
    private var inputCallback: AURenderCallbackStruct?
    private var maximumFrames: UInt32 = 4096
    private var settings: [AudioUnitPropertyID: UInt32] = [:]  // ShouldAllocateBuffer, the voice-processing switches
    private var initialized = false
    private var running = false
    private var listeners: [Listener] = []
    private var output: SampleOutput?
    private var input: SampleInput?
    private var recorded: [Float] = []
    private var inputTaken = false
    private var outputTime: Double = 0
    /// Frames the output takes and has not been given yet (the simulated device's clock counts on).
    private var budget = 0
    private var inputTime: Double = 0
    private var inputScratch: UnsafeMutableRawPointer?
    private var inputScratchBytes = 0
    private var renderScratch: UnsafeMutableRawPointer?
    private var renderScratchBytes = 0

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

    private static func bytes<T>(of value: T) -> [UInt8] {
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

    private func tellRunning() {
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
    private var sliceFrames = 0

    private var sliceFramesNow: Int {
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

    private func open() throws(MediaError) {
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

    private func halt() {
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

    private func stopReporting() {
        if outputEnabled { try? session.reportOutputRunning(false) }
        if inputEnabled { try? session.reportInputRunning(false) }
    }

    private func close() {
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

    // MARK: The tick (once per IO buffer duration while running, on the queue)

    private func tick() {
        guard running else { return }
        let frames = sliceFrames
        if inputEnabled, let input { pullInput(input, frames: frames) }
        guard running, outputEnabled, let output else { return }
        var gain: Float = 1
        var port: String?
        if output.isSimulated {
            guard let status = try? session.status(), status.isOutputRunning else { return }
            (gain, port) = (Float(status.outputGain), status.currentRoute.outputs.first?.uid)
        }
        // The server: the room in its buffer now; the simulated device: what it played since, added up.
        budget = output.isSimulated ? min(budget + output.writableFrames, 4 * frames) : output.writableFrames
        var samples: [Float] = []
        while running, budget >= frames {
            samples += render(frames)
            budget -= frames
        }
        try? output.write(samples, gain: gain, port: port)
    }

    /// Asks the app's render callback for `frames` frames (silence without one, or on its error).
    private func render(_ frames: Int) -> [Float] {
        let bytes = frames * outputFormat.bytesPerFrame
        if renderScratchBytes < bytes {
            free(renderScratch)
            renderScratch = calloc(1, bytes)
            renderScratchBytes = bytes
        }
        defer { outputTime += Double(frames) }
        guard let callback = renderCallback, let procedure = callback.inputProc, let data = renderScratch else {
            return [Float](repeating: 0, count: frames * outputFormat.channels)
        }
        var list = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(mNumberChannels: UInt32(outputFormat.channels), mDataByteSize: UInt32(bytes), mData: data))
        var flags: AudioUnitRenderActionFlags = 0
        var time = Self.timeStamp(outputTime)
        let status = procedure(callback.inputProcRefCon, &flags, &time, 0, UInt32(frames), &list)
        guard status == 0, flags & UInt32(kAudioUnitRenderAction_OutputIsSilence) == 0, let rendered = list.mBuffers.mData else {
            return [Float](repeating: 0, count: frames * outputFormat.channels)
        }
        return outputFormat.decode(rendered, frames: frames, gain: 1)
    }

    /// Reads the microphone; for each slice recorded, the app's input callback is told, and its
    /// AudioUnitRender on bus 1 takes the slice (a slice it does not take is dropped).
    private func pullInput(_ input: SampleInput, frames: Int) {
        var gain: Float = 1
        var silent = false
        if input.isSimulated {
            guard let status = try? session.status(), status.isInputRunning else { return }
            (gain, silent) = (Float(status.inputGain), status.recordsSilence)
        }
        var samples = input.read(gain: gain)
        if silent { samples = [Float](repeating: 0, count: samples.count) }
        recorded += samples
        let slice = frames * inputFormat.channels
        while running, recorded.count >= slice {
            inputTaken = false
            if let callback = inputCallback, let procedure = callback.inputProc {
                var flags: AudioUnitRenderActionFlags = 0
                var time = Self.timeStamp(inputTime)
                _ = procedure(callback.inputProcRefCon, &flags, &time, 1, UInt32(frames), nil)
            }
            if !inputTaken { recorded.removeFirst(min(slice, recorded.count)) }
            inputTime += Double(frames)
        }
        // At most a second waits for the app.
        let limit = inputFormat.sampleRate * inputFormat.channels
        if recorded.count > limit { recorded.removeFirst(recorded.count - limit) }
    }

    /// AudioUnitRender on bus 1: copies the microphone's next `frames` frames into `list` (into
    /// the unit's own buffer when its mData is NULL). From the unit's callbacks only.
    func renderInput(
        frames: Int, into list: UnsafeMutablePointer<AudioBufferList>, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?
    ) throws(CStatus) {
        guard thread.isCurrent else { throw CStatus(Int(kAudioUnitErr_CannotDoInCurrentContext)) }
        guard inputEnabled, running else { throw CStatus(Int(kAudioUnitErr_NoConnection)) }
        guard frames > 0, frames <= Int(maximumFrames) else { throw CStatus(Int(kAudioUnitErr_TooManyFramesToProcess)) }
        guard list.pointee.mNumberBuffers == 1 else { throw CStatus(Int(kAudio_ParamError)) }
        let bytes = frames * inputFormat.bytesPerFrame
        let count = frames * inputFormat.channels
        var slice = Array(recorded.prefix(count))
        recorded.removeFirst(slice.count)
        inputTaken = true
        if slice.count < count { slice += repeatElement(0, count: count - slice.count) }
        if list.pointee.mBuffers.mData == nil {
            if inputScratchBytes < bytes {
                free(inputScratch)
                inputScratch = calloc(1, bytes)
                inputScratchBytes = bytes
            }
            list.pointee.mBuffers.mData = inputScratch
        } else if list.pointee.mBuffers.mDataByteSize < UInt32(bytes) {
            throw CStatus(Int(kAudio_ParamError))
        }
        guard let data = list.pointee.mBuffers.mData else { throw CStatus(Int(kAudio_ParamError)) }
        inputFormat.encode(slice[...], into: data)
        list.pointee.mBuffers.mDataByteSize = UInt32(bytes)
        list.pointee.mBuffers.mNumberChannels = UInt32(inputFormat.channels)
        flags?.pointee &= ~UInt32(kAudioUnitRenderAction_OutputIsSilence)
    }

    private static func timeStamp(_ sampleTime: Double) -> AudioTimeStamp {
        var time = AudioTimeStamp()
        time.mSampleTime = sampleTime
        time.mHostTime = DispatchTime.now().uptimeNanoseconds
        time.mFlags = UInt32(kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid)
        return time
    }
}
