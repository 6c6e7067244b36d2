import AudioSession
import AudioSessionModel
import Dispatch

/// Plays a sound file (WAV, FLAC, Ogg Vorbis … through libsndfile) through the app's session,
/// with the manners of an iOS player:
/// - `play()` reports the output running (IO1: an inactive session is activated, so A3–A5, the
///   interruption and other-audio rules apply; a refusal is thrown and nothing plays);
/// - on `interruption began` it pauses (I1), and on `ended` with shouldResume it plays on when
///   `resumesAfterInterruption` is set (I3);
/// - when the route's output goes away (`oldDeviceUnavailable`, RT11) it pauses if
///   `pausesOnUnplug` is set (as Apple asks of apps playing to headphones);
/// - it plays on the session's route at the session's effective gain (D4): on a sound server the
///   daemon moves its stream and sets its volume; on the simulated device it renders to files.
public final class AudioPlayer: @unchecked Sendable {
    /// Why the player paused.
    public enum PauseReason: String, Sendable {
        /// MS1, MS3: media services were lost (the sound server or the daemon went away).
        case app, interruption, unplug, mediaServices
    }

    /// What happened, told to `eventHandler` in order, on a queue of the player's events (the
    /// handler may call the player).
    public enum Event: Sendable, Equatable, CustomStringConvertible {
        case started
        case paused(PauseReason)
        case resumed
        case finished
        case failed(String)

        /// As a log line reads it: `started`, `paused (interruption)`, `failed: why`.
        public var description: String {
            switch self {
            case .started: "started"
            case .paused(let reason): "paused (\(reason.rawValue))"
            case .resumed: "resumed"
            case .finished: "finished"
            case .failed(let why): "failed: \(why)"
            }
        }
    }

    public let session: AudioSession
    public let endpoint: AudioEndpoint
    public let sound: SampleBuffer
    public let path: String

    private let ticker = Ticker(label: "audiosession.player")
    private let events = DispatchQueue(label: "audiosession.player.events")
    private var queue: DispatchQueue { ticker.queue }
    // The rest is the queue's.
    private var output: Output?
    private var position = 0
    private var playing = false
    private var draining = false
    private var interruptedWhilePlaying = false
    private var lostWhilePlaying = false
    private var forwarder: NotificationForwarder?
    private var options = Options()

    private enum Output {
        case server(PulseOutput)
        case files(RenderedOutput)
    }

    private struct Options {
        var resumesAfterInterruption = true
        var pausesOnUnplug = true
        var volume: Float = 1
        var eventHandler: (@Sendable (Event) -> Void)?
    }

    /// Reads the file; nothing plays until `play()`.
    /// - Throws: `MediaError` naming the file when it cannot be read.
    public init(contentsOf path: String, session: AudioSession = .shared, endpoint: AudioEndpoint = .automatic) throws(MediaError)
    {
        do { sound = try SoundFile.read(path) } catch { throw MediaError(error.description) }
        self.path = path
        self.session = session
        self.endpoint = endpoint
        forwarder = NotificationForwarder(session: session, queue: ticker.queue) { [weak self] in self?.handle($0) }
    }

    /// I3: play on after an interruption that ends with shouldResume (on by default).
    public var resumesAfterInterruption: Bool {
        get { queue.sync { options.resumesAfterInterruption } }
        set { queue.sync { options.resumesAfterInterruption = newValue } }
    }

    /// RT11: pause when the route's output device goes away (on by default).
    public var pausesOnUnplug: Bool {
        get { queue.sync { options.pausesOnUnplug } }
        set { queue.sync { options.pausesOnUnplug = newValue } }
    }

    /// The player's own volume, 0…1 (the session's gain applies on top, never instead).
    public var volume: Float {
        get { queue.sync { options.volume } }
        set { queue.sync { options.volume = min(1, max(0, newValue)) } }
    }

    /// Told what happens, in order (see `Event`).
    public var eventHandler: (@Sendable (Event) -> Void)? {
        get { queue.sync { options.eventHandler } }
        set { queue.sync { options.eventHandler = newValue } }
    }

    public var isPlaying: Bool { queue.sync { playing } }
    /// Seconds into the sound.
    public var currentTime: Double { queue.sync { Double(position / max(sound.channels, 1)) / Double(sound.sampleRate) } }
    public var duration: Double { sound.duration }

    /// Starts or resumes playing.
    /// - Throws: the session's `SessionError` (e.g. `!pri` during a call, A3), or `MediaError`
    ///   when the sound server cannot be reached. Nothing plays then.
    public func play() throws {
        try queue.sync { () throws in try start(event: .started) }
    }

    /// Pauses where it is; `play()` goes on from there.
    public func pause() {
        queue.sync { halt(.app) }
    }

    /// Stops and rewinds; the output is closed.
    public func stop() {
        queue.sync {
            halt(nil)
            position = 0
            closeOutput()
        }
    }

    // MARK: On the queue

    private func start(event: Event) throws {
        guard !playing else { return }
        if position >= sound.samples.count { position = 0 }
        try session.reportOutputRunning(true)  // IO1
        do {
            let output = try openOutput()
            if case .server(let stream) = output { stream.cork(false) }
        } catch {
            try? session.reportOutputRunning(false)
            throw error
        }
        playing = true
        draining = false
        ticker.start { [weak self] in self?.tick() }
        tell(event)
    }

    private func openOutput() throws(MediaError) -> Output {
        if let output { return output }
        let opened: Output
        switch endpoint {
        case .soundServer(let server):
            opened = .server(
                try PulseOutput(
                    server: server, app: session.appID.rawValue, role: role, channels: sound.channels,
                    sampleRate: sound.sampleRate,
                    bufferDuration: session.ioBufferDuration))
        case .files(let directory):
            opened = .files(
                RenderedOutput(
                    directory: directory, app: session.appID.rawValue, channels: sound.channels, sampleRate: sound.sampleRate))
        }
        output = opened
        return opened
    }

    /// The stream's `media.role`, from the session's category and mode.
    private var role: String {
        switch (session.category, session.mode) {
        case (_, .voiceChat), (_, .videoChat): "phone"
        case (.ambient, _), (.soloAmbient, _): "game"
        default: "music"
        }
    }

    /// Stops feeding the output; `reason` nil for a stop or the end.
    private func halt(_ reason: PauseReason?) {
        guard playing else { return }
        playing = false
        ticker.stop()
        switch output {
        case .server(let stream): stream.cork(true)
        case .files(let files): files.pause()
        case nil: break
        }
        try? session.reportOutputRunning(false)
        if let reason { tell(.paused(reason)) }
    }

    private func closeOutput() {
        if case .files(let files) = output { files.close() }
        output = nil
    }

    private func tell(_ event: Event) {
        guard let handler = options.eventHandler else { return }
        events.async { handler(event) }
    }

    private func tick() {
        guard playing, let output else { return }
        let status = try? session.status()
        // I1, A5, IO3: the system stopped the output; the notification follows.
        guard let status, status.isOutputRunning else { return }
        let channels = sound.channels
        switch output {
        case .server(let stream):
            let frames = min(stream.writableFrames, (sound.samples.count - position) / channels)
            if frames > 0 { stream.write(scaled(frames, by: options.volume)[...]) }
            position += frames * channels
            if position >= sound.samples.count { finishWhenPlayed(stream.bufferedSeconds) }
        case .files(let files):
            let frames = min(files.takeFrames(), (sound.samples.count - position) / channels)
            if frames > 0, let port = status.currentRoute.outputs.first?.uid {
                do { try files.write(scaled(frames, by: options.volume * Float(status.outputGain)), port: port) } catch {
                    tell(.failed(error.description))
                }
            }
            position += frames * channels
            if position >= sound.samples.count { finishWhenPlayed(0) }
        }
    }

    private func scaled(_ frames: Int, by gain: Float) -> [Float] {
        let slice = sound.samples[position..<position + frames * sound.channels]
        return gain == 1 ? Array(slice) : slice.map { $0 * gain }
    }

    /// At the end of the sound: finished once what is buffered has played.
    private func finishWhenPlayed(_ buffered: Double) {
        guard buffered < 0.005 else { return }
        halt(nil)
        position = 0
        tell(.finished)
    }

    private func handle(_ notification: SessionNotification) {
        switch notification {
        case .interruptionBegan:  // I1
            guard playing else { return }
            interruptedWhilePlaying = true
            halt(.interruption)
        case .interruptionEnded(let shouldResume):  // I3
            guard interruptedWhilePlaying else { return }
            interruptedWhilePlaying = false
            guard shouldResume, options.resumesAfterInterruption else { return }
            do { try start(event: .resumed) } catch { tell(.failed("cannot resume: \(error)")) }
        case .mediaServicesLost:  // MS1, MS3: the stream went with the server; a new one is made later
            if playing { lostWhilePlaying = true }
            interruptedWhilePlaying = false
            halt(.mediaServices)
            closeOutput()
        case .mediaServicesReset:  // MS2: with the automatic re-apply, play on where it was
            closeOutput()
            guard lostWhilePlaying else { return }
            lostWhilePlaying = false
            guard session.reappliesConfigurationAfterReset else { return }
            do { try start(event: .resumed) } catch { tell(.failed("cannot play on after the reset: \(error)")) }
        case .routeChange(.oldDeviceUnavailable, let previous, let current):  // RT11
            guard playing, options.pausesOnUnplug, let old = previous.outputs.first, !current.outputs.contains(old) else {
                return
            }
            halt(.unplug)
        default:
            break
        }
    }
}
