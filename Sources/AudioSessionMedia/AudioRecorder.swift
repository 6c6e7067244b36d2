import AudioSession
import AudioSessionModel
import Dispatch
import Foundation

/// Records the session's input to a WAV file (16-bit PCM at the session's sample rate and
/// input channel count, HW1/HW4), with the manners of an iOS recorder:
/// - `record()` reports the input running (IO1: an inactive session is activated; IO2: `!cat`
///   without input in the category, `!res` without an input on the route; P3: the first start
///   while undetermined asks for permission);
/// - without record permission, or while the app is suspended (P3, D5), it records zeros;
/// - on `interruption began` it pauses, and on `ended` with shouldResume it records on when
///   `resumesAfterInterruption` is set (I1, I3).
/// On a sound server its stream records from the session's input (the daemon moves it); on the
/// simulated device the microphone is a 440 Hz tone at −12 dBFS times the input gain (HW6).
public final class AudioRecorder: @unchecked Sendable {
    public let session: AudioSession
    public let endpoint: AudioEndpoint
    public let path: String
    /// What it writes; nil: 16-bit WAV at the session's sample rate and input channels.
    public let format: Format?

    /// A file format and the stream's shape (SO3: AVAudioRecorder's settings).
    public struct Format: Sendable, Equatable {
        public var file: SoundFile.Format
        public var channels: Int
        public var sampleRate: Int
        public init(file: SoundFile.Format, channels: Int, sampleRate: Int) {
            (self.file, self.channels, self.sampleRate) = (file, channels, sampleRate)
        }
    }

    /// What happened, told to `eventHandler` in order on a queue of the recorder's own.
    public enum Event: Sendable, Equatable {
        case paused(interruption: Bool)
        /// SO3: the interruption ended and it did not record on by itself.
        case interruptionEnded(shouldResume: Bool)
        /// `record(forDuration:)`'s time is up: the file is finished.
        case finished
        /// The file could not be written on; recording stopped.
        case encodeError(String)
    }

    private let ticker = Ticker(label: "audiosession.recorder")
    private var queue: DispatchQueue { ticker.queue }
    // The rest is the queue's.
    private var writer: SoundFileWriter?
    private var input: SampleInput?
    private var recording = false
    private var interruptedWhileRecording = false
    private var lostWhileRecording = false
    private var framesWritten = 0
    private var forwarder: NotificationForwarder?
    private var resumes = true
    private var handler: (@Sendable (Event) -> Void)?
    private let events = DispatchQueue(label: "audiosession.recorder.events")
    private var limit: Int?
    private var meter = PowerMeter(channels: 1)

    /// Nothing is recorded (nor the file created) until `record()`.
    public init(path: String, session: AudioSession = .shared, endpoint: AudioEndpoint = .automatic, format: Format? = nil) {
        self.path = path
        self.format = format
        self.session = session
        self.endpoint = endpoint
        forwarder = NotificationForwarder(session: session, queue: ticker.queue) { [weak self] in self?.handle($0) }
    }

    deinit { writer?.close() }

    /// I3: record on after an interruption that ends with shouldResume (on by default).
    public var resumesAfterInterruption: Bool {
        get { queue.sync { resumes } }
        set { queue.sync { resumes = newValue } }
    }

    public var isRecording: Bool { queue.sync { recording } }

    /// Told what happens, in order (see `Event`).
    public var eventHandler: (@Sendable (Event) -> Void)? {
        get { queue.sync { handler } }
        set { queue.sync { handler = newValue } }
    }

    /// Per channel, the average and peak power recorded since the last call, in dBFS (−160: silence).
    public func takeLevels() -> [(average: Double, peak: Double)] { queue.sync { meter.take() } }

    /// Records until `seconds` are in the file (counting what is there), then finishes it
    /// (`Event.finished`).
    public func record(forDuration seconds: Double) throws {
        try queue.sync { () throws in
            limit = writer.map { framesWritten + Int(seconds * Double($0.sampleRate)) }
            try start()
            if limit == nil, let writer { limit = Int(seconds * Double(writer.sampleRate)) }
        }
    }

    /// Seconds recorded so far.
    public var currentTime: Double { queue.sync { writer.map { Double(framesWritten) / Double($0.sampleRate) } ?? 0 } }

    /// Starts or resumes recording (the first call creates the file).
    /// - Throws: the session's `SessionError` (IO2, A3 …), or `MediaError` when the file cannot
    ///   be written or the sound server cannot be reached. Nothing is recorded then.
    public func record() throws {
        try queue.sync { () throws in try start() }
    }

    /// Pauses; `record()` appends from there.
    public func pause() {
        queue.sync { halt() }
    }

    /// Stops and finishes the file.
    public func stop() {
        queue.sync { finish() }
    }

    private func finish() {
        halt()
        writer?.close()
        writer = nil
        input = nil
        limit = nil
    }

    private func tell(_ event: Event) {
        guard let handler else { return }
        events.async { handler(event) }
    }

    // MARK: On the queue

    private func start() throws {
        guard !recording else { return }
        try session.reportInputRunning(true)  // IO1, IO2, P3
        do {
            let status = try session.status()
            let channels = format?.channels ?? max(1, (try? status.inputChannels.get()) ?? 1)
            let rate = format?.sampleRate ?? Int(status.sampleRate.rounded())
            if writer == nil {
                do {
                    writer = try SoundFileWriter(path: path, channels: channels, sampleRate: rate, format: format?.file ?? .wav16)
                } catch {
                    throw MediaError(error.description)
                }
                framesWritten = 0
                meter = PowerMeter(channels: channels)
            }
            if input == nil {
                input = try SampleInput(
                    endpoint: endpoint, app: session.appID.rawValue, channels: writer!.channels, sampleRate: writer!.sampleRate,
                    bufferDuration: status.ioBufferDuration)
            }
            input?.cork(false)
        } catch {
            try? session.reportInputRunning(false)
            throw error
        }
        recording = true
        ticker.start { [weak self] in self?.tick() }
    }

    private func halt() {
        guard recording else { return }
        recording = false
        ticker.stop()
        input?.cork(true)
        try? session.reportInputRunning(false)
    }

    private func tick() {
        guard recording, let writer, let input else { return }
        let status = try? session.status()
        var samples = input.read(gain: Float(status?.inputGain ?? 1))
        // I1, IO3: the system stopped the input (the notification follows): nothing is kept.
        guard let status, status.isInputRunning else { return }
        if status.recordsSilence { samples = [Float](repeating: 0, count: samples.count) }  // P3, D5
        if let limit, framesWritten + samples.count / writer.channels > limit {
            samples.removeLast(samples.count - max(0, limit - framesWritten) * writer.channels)
        }
        do { try writer.append(samples) } catch {
            finish()
            tell(.encodeError(error.description))
            return
        }
        meter.add(samples)
        framesWritten += samples.count / writer.channels
        if let limit, framesWritten >= limit {
            finish()
            tell(.finished)
        }
    }

    private func handle(_ notification: SessionNotification) {
        switch notification {
        case .interruptionBegan:  // I1
            guard recording else { return }
            interruptedWhileRecording = true
            halt()
            tell(.paused(interruption: true))
        case .interruptionEnded(let shouldResume):  // I3
            guard interruptedWhileRecording else { return }
            interruptedWhileRecording = false
            if shouldResume, resumes { try? start() } else { tell(.interruptionEnded(shouldResume: shouldResume)) }
        case .mediaServicesLost:  // MS1, MS3: the stream went with the server; the file stays open
            if recording { lostWhileRecording = true }
            interruptedWhileRecording = false
            halt()
            input = nil
        case .mediaServicesReset:  // MS2: with the automatic re-apply, record on into the same file
            input = nil
            guard lostWhileRecording else { return }
            lostWhileRecording = false
            if session.reappliesConfigurationAfterReset { try? start() }
        default:
            break
        }
    }
}
