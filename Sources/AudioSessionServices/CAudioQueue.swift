import AudioSessionClient
import AudioSessionModel
import AudioSessionSound
import CAudioSessionServices
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An audio queue (SO4): the app's buffers, played through the one playback path (a stream of
/// the app's own on the sound server, or the simulated device's files) or filled from the one
/// recording path. Everything it holds is its serial queue's — the thread the library owns, on
/// which the app's callbacks and listeners run; a call from a callback runs in place, a call
/// from any other thread waits its turn.
final class CAudioQueue: @unchecked Sendable {
    enum Callback {
        case output(AudioQueueOutputCallback)
        case input(AudioQueueInputCallback)
    }

    struct Listener: Equatable {
        let procedure: AudioQueuePropertyListenerProc
        let userData: UnsafeMutableRawPointer?

        static func == (a: Listener, b: Listener) -> Bool {
            unsafeBitCast(a.procedure, to: UnsafeRawPointer.self) == unsafeBitCast(b.procedure, to: UnsafeRawPointer.self)
                && a.userData == b.userData
        }
    }

    /// The handle C holds: a number, never an address, so a disposed queue's handle is refused
    /// (kAudio_ParamError) instead of being freed memory.
    let handle: AudioQueueRef
    let format: CPCMFormat
    let callback: Callback
    let userData: UnsafeMutableRawPointer?
    let session: AudioSession
    private let thread = CallbackThread(label: "audiosession.audio-queue")
    private var ticker: Ticker { thread.ticker }
    var isInput: Bool { if case .input = callback { true } else { false } }

    // The queue's.
    private var buffers: [AudioQueueBufferRef: Bool] = [:]  // allocated: enqueued?
    private var queued: [AudioQueueBufferRef] = []
    private var headOffset = 0  // bytes of the first queued buffer already played or filled
    private var recorded: [Float] = []  // input read and not yet in a buffer
    private var output: SampleOutput?
    private var input: SampleInput?
    private var isRunning = false
    private var isPaused = false
    private var isStopping = false
    private var volume: Float = 1
    private var frames: Int64 = 0  // played or recorded since the start
    private var listeners: [Listener] = []
    private var notifications: NotificationHandlerToken?
    /// Times the queue ran dry while running (the app did not enqueue in time).
    private(set) var underruns = 0
    private var dry = false

    init(format: CPCMFormat, callback: Callback, userData: UnsafeMutableRawPointer?, session: AudioSession, handle: AudioQueueRef)
    {
        self.format = format
        self.callback = callback
        self.userData = userData
        self.session = session
        self.handle = handle
        notifications = session.addNotificationHandler { [weak self] notification in
            guard case .interruptionBegan = notification, let self else { return }
            self.thread.async { self.interrupted() }
        }
    }

    /// Runs `body` on the callback thread: in place from a callback, else waiting its turn.
    func sync<T>(_ body: () throws(CStatus) -> T) throws(CStatus) -> T { try thread.sync(body) }

    // MARK: Buffers

    func allocateBuffer(bytes: UInt32, packetDescriptions: UInt32) throws(CStatus) -> AudioQueueBufferRef {
        guard bytes > 0 else { throw CStatus(Int(kAudio_ParamError)) }
        let descriptions = Int(packetDescriptions)
        let size = MemoryLayout<AudioQueueBuffer>.stride + descriptions * MemoryLayout<AudioStreamPacketDescription>.stride
        guard let block = calloc(1, size), let data = calloc(1, Int(bytes)) else { throw CStatus(Int(kAudio_MemFullError)) }
        let packets =
            descriptions > 0
            ? (block + MemoryLayout<AudioQueueBuffer>.stride).bindMemory(
                to: AudioStreamPacketDescription.self, capacity: descriptions)
            : nil
        let buffer = block.bindMemory(to: AudioQueueBuffer.self, capacity: 1)
        buffer.initialize(
            to: AudioQueueBuffer(
                mAudioDataBytesCapacity: bytes, mAudioData: data, mAudioDataByteSize: 0, mUserData: nil,
                mPacketDescriptionCapacity: packetDescriptions, mPacketDescriptions: packets, mPacketDescriptionCount: 0))
        try sync { () throws(CStatus) in buffers[buffer] = false }
        return buffer
    }

    func freeBuffer(_ buffer: AudioQueueBufferRef) throws(CStatus) {
        try sync { () throws(CStatus) in
            guard let enqueued = buffers[buffer] else { throw CStatus(Int(kAudioQueueErr_InvalidBuffer)) }
            guard !enqueued || !isRunning else { throw CStatus(Int(kAudioQueueErr_BufferInQueue)) }
            buffers[buffer] = nil
            queued.removeAll { $0 == buffer }
            Self.release(buffer)
        }
    }

    func enqueue(_ buffer: AudioQueueBufferRef) throws(CStatus) {
        try sync { () throws(CStatus) in
            guard let enqueued = buffers[buffer] else { throw CStatus(Int(kAudioQueueErr_InvalidBuffer)) }
            guard !enqueued else { throw CStatus(Int(kAudioQueueErr_BufferInQueue)) }
            if !isInput {
                guard buffer.pointee.mAudioDataByteSize <= buffer.pointee.mAudioDataBytesCapacity,
                    Int(buffer.pointee.mAudioDataByteSize) % format.bytesPerFrame == 0
                else { throw CStatus(Int(kAudio_ParamError)) }
                guard buffer.pointee.mAudioDataByteSize > 0 else { throw CStatus(Int(kAudioQueueErr_BufferEmpty)) }
            }
            buffers[buffer] = true
            queued.append(buffer)
            dry = false
        }
    }

    private static func release(_ buffer: AudioQueueBufferRef) {
        free(buffer.pointee.mAudioData)
        free(UnsafeMutableRawPointer(buffer))
    }

    // MARK: Running

    /// IO1: the session's output (input) starts with the queue; refused, nothing runs.
    func start() throws(CStatus) {
        try sync { () throws(CStatus) in
            guard !isRunning || isPaused else { return }
            do throws(SessionError) {
                if isInput { try session.reportInputRunning(true) } else { try session.reportOutputRunning(true) }
            } catch { throw CStatus(error) }
            do throws(MediaError) {
                try open()
            } catch {
                stopReporting()
                throw CStatus(Int(kAudioQueueErr_CannotStart))
            }
            output?.cork(false)
            input?.cork(false)
            let wasRunning = isRunning
            (isRunning, isPaused, isStopping, dry) = (true, false, false, false)
            ticker.start { [weak self] in self?.tick() }
            if !wasRunning { tellListeners() }
        }
    }

    private func open() throws(MediaError) {
        let app = session.appID.rawValue
        if isInput, input == nil {
            input = try SampleInput(
                endpoint: .automatic, app: app, channels: format.channels, sampleRate: format.sampleRate,
                bufferDuration: session.ioBufferDuration)
        } else if !isInput, output == nil {
            output = try SampleOutput(
                endpoint: .automatic, app: app, role: session.streamRole, channels: format.channels,
                sampleRate: format.sampleRate, bufferDuration: session.ioBufferDuration)
        }
    }

    func pause() throws(CStatus) {
        try sync { () throws(CStatus) in
            guard isRunning, !isPaused else { return }
            isPaused = true
            ticker.stop()
            output?.cork(true)
            input?.cork(true)
            stopReporting()
        }
    }

    /// `immediately`: stops now, dropping what is queued; else after what is queued has played.
    func stop(immediately: Bool) throws(CStatus) {
        try sync { () throws(CStatus) in
            guard isRunning else { return }
            if immediately || isPaused || isInput { halt(dropping: true) } else { isStopping = true }
        }
    }

    /// Drops what is queued, the buffers back with the app (Reset; Flush for an output queue
    /// plays nothing more of them either).
    func reset() throws(CStatus) {
        try sync { () throws(CStatus) in
            drop()
            output?.flush()
        }
    }

    private func drop() {
        for buffer in queued { buffers[buffer] = false }
        queued.removeAll()
        headOffset = 0
        recorded.removeAll()
    }

    private func halt(dropping: Bool) {
        ticker.stop()
        output?.flush()
        output?.cork(true)
        input?.cork(true)
        if dropping { drop() }
        let wasRunning = isRunning
        (isRunning, isPaused, isStopping) = (false, false, false)
        if wasRunning {
            stopReporting()
            tellListeners()
        }
    }

    private func stopReporting() {
        if isInput { try? session.reportInputRunning(false) } else { try? session.reportOutputRunning(false) }
    }

    /// I1: an interruption stops the queue; the app starts it again after the end.
    private func interrupted() {
        guard isRunning else { return }
        halt(dropping: false)
    }

    func dispose() {
        _ = try? sync { () throws(CStatus) in
            if isRunning { halt(dropping: true) }
            listeners.removeAll()
            output?.close()
            (output, input) = (nil, nil)
            for buffer in buffers.keys { Self.release(buffer) }
            buffers.removeAll()
            queued.removeAll()
        }
        if let notifications { session.removeNotificationHandler(notifications) }
    }

    // MARK: Parameters, properties, listeners

    func parameter(_ id: AudioQueueParameterID) throws(CStatus) -> Float {
        guard id == AudioQueueParameterID(kAudioQueueParam_Volume) else { throw CStatus(Int(kAudioQueueErr_InvalidParameter)) }
        return try sync { () throws(CStatus) in volume }
    }

    func setParameter(_ id: AudioQueueParameterID, _ value: Float) throws(CStatus) {
        guard id == AudioQueueParameterID(kAudioQueueParam_Volume) else { throw CStatus(Int(kAudioQueueErr_InvalidParameter)) }
        guard value.isFinite, (0...1).contains(value) else { throw CStatus(Int(kAudioQueueErr_InvalidPropertyValue)) }
        try sync { () throws(CStatus) in volume = value }
    }

    var running: Bool { (try? sync { () throws(CStatus) in isRunning }) ?? false }

    /// Frames played (heard, not just handed to the server) or recorded since the start.
    var sampleTime: Double {
        (try? sync { () throws(CStatus) in
            let buffered = (output?.bufferedSeconds ?? 0) * Double(format.sampleRate)
            return max(0, Double(frames) - buffered)
        }) ?? 0
    }

    func addListener(_ listener: Listener) throws(CStatus) {
        try sync { () throws(CStatus) in listeners.append(listener) }
    }

    func removeListener(_ listener: Listener) throws(CStatus) {
        try sync { () throws(CStatus) in
            guard let index = listeners.firstIndex(of: listener) else { throw CStatus(Int(kAudio_ParamError)) }
            listeners.remove(at: index)
        }
    }

    private func tellListeners() {
        for listener in listeners {
            listener.procedure(listener.userData, handle, AudioQueuePropertyID(kAudioQueueProperty_IsRunning))
        }
    }

    // MARK: The tick (every 10 ms while running, on the queue)

    private func tick() {
        guard isRunning, !isPaused else { return }
        if isInput { fill() } else { play() }
    }

    /// The session's gain and output port on the simulated device (the daemon applies the gain
    /// to a server stream); nil while the system holds the output stopped.
    private func simulatedOutput() -> (gain: Float, port: String?)? {
        guard output?.isSimulated == true else { return (1, nil) }
        guard let status = try? session.status(), status.isOutputRunning else { return nil }
        return (Float(status.outputGain), status.currentRoute.outputs.first?.uid)
    }

    private func play() {
        guard let output, let device = simulatedOutput() else { return }
        var writable = output.writableFrames
        var samples: [Float] = []
        var played: [AudioQueueBufferRef] = []
        while writable > 0, let head = queued.first {
            let size = Int(head.pointee.mAudioDataByteSize)
            let count = min((size - headOffset) / format.bytesPerFrame, writable)
            if count > 0, let data = head.pointee.mAudioData {
                samples += format.decode(data + headOffset, frames: count, gain: volume)
            }
            headOffset += count * format.bytesPerFrame
            writable -= count
            frames += Int64(count)
            if headOffset >= size - size % format.bytesPerFrame {
                queued.removeFirst()
                buffers[head] = false
                headOffset = 0
                played.append(head)
            }
        }
        try? output.write(samples, gain: device.gain, port: device.port)
        if queued.isEmpty, !isStopping, samples.isEmpty, !dry, output.bufferedSeconds < 0.002 {
            dry = true  // counted once per dry spell
            underruns += 1
        }
        if case .output(let callback) = callback {
            for buffer in played where isRunning { callback(userData, handle, buffer) }
        }
        if isStopping, queued.isEmpty, output.bufferedSeconds < 0.005 { halt(dropping: true) }
    }

    private func fill() {
        guard let input else { return }
        var gain: Float = 1
        var silent = false
        if input.isSimulated {
            // The simulated device (in the process): I1, IO3: the system stopped the input; P3:
            // without permission it records silence. On a server the daemon governs the stream.
            guard let status = try? session.status(), status.isInputRunning else { return }
            gain = Float(status.inputGain)
            silent = status.recordsSilence
        }
        var samples = input.read(gain: gain)
        if silent { samples = [Float](repeating: 0, count: samples.count) }
        recorded += samples
        guard case .input(let callback) = callback else { return }
        while let head = queued.first {
            let capacityFrames = Int(head.pointee.mAudioDataBytesCapacity) / format.bytesPerFrame
            let count = capacityFrames * format.channels
            guard capacityFrames > 0, recorded.count >= count, let data = head.pointee.mAudioData else { break }
            format.encode(recorded[..<count], into: data)
            recorded.removeFirst(count)
            head.pointee.mAudioDataByteSize = UInt32(capacityFrames * format.bytesPerFrame)
            queued.removeFirst()
            buffers[head] = false
            var time = AudioTimeStamp()
            time.mSampleTime = Float64(frames)
            time.mFlags = UInt32(kAudioTimeStampSampleTimeValid)
            frames += Int64(capacityFrames)
            callback(userData, handle, head, &time, 0, nil)
            guard isRunning else { return }
        }
        // Nothing queued to fill: what is heard meanwhile is lost (at most a second is kept).
        let limit = format.sampleRate * format.channels
        if recorded.count > limit { recorded.removeFirst(recorded.count - limit) }
    }
}
