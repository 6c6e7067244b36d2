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
///
/// The file is decoded as it plays (SO2: an hour-long file costs what a minute-long one does),
/// through `PlaybackSource` — loops, rate, volume fades, pan and metering — the one playback path
/// AVAudioPlayer is a shape over.
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
        /// SO2: the interruption it was paused by ended, and it did not play on by itself
        /// (`resumesAfterInterruption` off, or the end said not to resume).
        case interruptionEnded(shouldResume: Bool)
        /// SO2: the file could not be decoded on (truncated while it played); it stopped.
        case decodeError(String)

        /// As a log line reads it: `started`, `paused (interruption)`, `failed: why`.
        public var description: String {
            switch self {
            case .started: "started"
            case .paused(let reason): "paused (\(reason.rawValue))"
            case .resumed: "resumed"
            case .finished: "finished"
            case .failed(let why): "failed: \(why)"
            case .interruptionEnded(let resume): "interruption ended\(resume ? " (should resume)" : "")"
            case .decodeError(let why): "decode error: \(why)"
            }
        }
    }

    public let session: AudioSession
    public let endpoint: AudioEndpoint
    public let path: String
    /// The file's format, from its header.
    public let channels: Int
    public let sampleRate: Int
    public let frames: Int
    /// libsndfile's format code of the file (major format | subtype).
    public let fileFormat: Int32

    let ticker = Ticker(label: "audiosession.player")
    private let events = DispatchQueue(label: "audiosession.player.events")
    var queue: DispatchQueue { ticker.queue }
    // The rest is the queue's.
    var output: SampleOutput?
    var source: PlaybackSource
    /// On a sound server: what was written ahead of what is heard (AudioPlayer+WriteAhead).
    var ahead: WriteAhead?
    /// Near the end: the frame last heard and since when (AudioPlayer+WriteAhead).
    var lastHeard: (frames: Int, since: UInt64)?
    var playing = false
    /// `isMetering` (the source's or the write-ahead's own flag follows it).
    var metering = true
    private var interruptedWhilePlaying = false
    private var lostWhilePlaying = false
    private var forwarder: NotificationForwarder?
    private var options = Options()

    private struct Options {
        var resumesAfterInterruption = true
        var pausesOnUnplug = true
        var volume: Float = 1
        var eventHandler: (@Sendable (Event) -> Void)?
    }

    /// Opens the file and reads its header; nothing is decoded or plays until `play()`.
    /// - Throws: `MediaError` naming the file when it cannot be read.
    public init(contentsOf path: String, session: AudioSession = .shared, endpoint: AudioEndpoint = .automatic) throws(MediaError)
    {
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: path) } catch { throw MediaError(error.description) }
        source = PlaybackSource(reader: reader)
        (channels, sampleRate, frames, fileFormat) = (reader.channels, reader.sampleRate, reader.frames, reader.format)
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
        set { setVolume(newValue, fadeDuration: 0) }
    }

    /// Told what happens, in order (see `Event`).
    public var eventHandler: (@Sendable (Event) -> Void)? {
        get { queue.sync { options.eventHandler } }
        set { queue.sync { options.eventHandler = newValue } }
    }

    public var isPlaying: Bool { queue.sync { playing } }

    /// Seconds into the sound being heard; set, playing goes on from there (on a sound server what
    /// is buffered past the frame being heard is written again from the new position: heard next).
    public var currentTime: Double {
        get { queue.sync { heardPosition / Double(sampleRate) } }
        set {
            let frame = Int((max(0, newValue) * Double(sampleRate)).rounded())
            queue.sync { change { $0.seek(to: frame) } }
        }
    }

    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// Times to play it again after the first (−1: until stopped).
    public var numberOfLoops: Int {
        get { queue.sync { source.loopsLeft } }
        set { queue.sync { change { $0.loopsLeft = max(-1, newValue) } } }
    }

    /// Playback rate, 0.5…2 (1: the file's own pace; the pitch follows, as a tape's would).
    public var rate: Double {
        get { queue.sync { source.rate } }
        set { queue.sync { change { $0.rate = min(2, max(0.5, newValue)) } } }
    }

    /// −1 (left) … 1 (right): the balance of a stereo sound (a mono one plays as it is).
    public var pan: Float {
        get { queue.sync { source.pan } }
        set { queue.sync { change { $0.pan = min(1, max(-1, newValue)) } } }
    }

    /// Fades the player's volume to `volume` over `seconds` of playback (0: at once).
    public func setVolume(_ volume: Float, fadeDuration seconds: Double) {
        let target = min(1, max(0, volume))
        queue.sync {
            options.volume = target
            let frames = Int(max(0, seconds) * Double(sampleRate))
            change { $0.setVolume(target, over: frames) }
        }
    }

    /// Per channel, the average and peak power of what it played since the last call, in dBFS
    /// (a full-scale sine is 0; −160 for silence; with `isMetering` off, nothing is measured).
    public func takeLevels() -> [(average: Double, peak: Double)] { queue.sync { levels() } }

    /// Whether what it plays is metered for `takeLevels()` (on unless turned off: AVAudioPlayer
    /// turns it on with `isMeteringEnabled` only, since measuring costs CPU on every block).
    public var isMetering: Bool {
        get { queue.sync { metering } }
        set { queue.sync { meter(newValue) } }
    }

    /// Opens its output (the sound server's stream, paused) so that `play()` starts at once.
    public func prepare() throws(MediaError) {
        let failure = queue.sync { () -> MediaError? in
            do throws(MediaError) {
                let output = try openOutput()
                if !playing { output.cork(true) }
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

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

    /// Stops and closes the output; `rewinding` (the default) goes back to the start, otherwise
    /// the position is kept (AVAudioPlayer's `stop()`).
    public func stop(rewinding: Bool = true) {
        queue.sync {
            halt(nil)
            closeOutput()  // the source back at the frame heard (AudioPlayer+WriteAhead)
            if rewinding { source.seek(to: 0) }
        }
    }

    // MARK: On the queue

    private func start(event: Event) throws {
        guard !playing else { return }
        if heardPosition >= Double(frames) { change { $0.seek(to: 0) } }
        try session.reportOutputRunning(true)  // IO1
        do {
            try openOutput().cork(false)
        } catch {
            try? session.reportOutputRunning(false)
            throw error
        }
        playing = true
        lastHeard = nil  // the server's clock stood during the pause: not a stand near the end
        ticker.period = ahead != nil ? Self.serverTick : Ticker.interval
        ticker.start { [weak self] in self?.tick() }
        tell(event)
    }

    private func openOutput() throws(MediaError) -> SampleOutput {
        if let output { return output }
        let opened = try SampleOutput(
            endpoint: endpoint, app: session.appID.rawValue, role: session.streamRole, channels: channels,
            sampleRate: sampleRate, bufferDuration: session.ioBufferDuration,
            requests: ServerRequests(buffer: Self.serverBuffer, request: Self.serverRequest) { [ticker] in ticker.tickSoon() })
        output = opened
        if !opened.isSimulated { writeAhead() }
        return opened
    }

    /// Stops feeding the output; `reason` nil for a stop or the end.
    private func halt(_ reason: PauseReason?) {
        guard playing else { return }
        playing = false
        ticker.stop()
        output?.cork(true)
        try? session.reportOutputRunning(false)
        if let reason { tell(.paused(reason)) }
    }

    private func closeOutput() {
        settle()
        output?.close()
        output = nil
    }

    private func tell(_ event: Event) {
        guard let handler = options.eventHandler else { return }
        events.async { handler(event) }
    }

    /// A tick: on a server's stream `tickAhead` (the daemon governs that stream, SO1: the tick asks
    /// nothing); on the simulated device's files, what it played since the last tick, taking the
    /// session's gain and route from here — I1, A5, IO3: while the system holds the output stopped
    /// nothing is written (the notification follows).
    private func tick() {
        guard playing, let output else { return }
        guard ahead == nil else { return tickAhead() }
        guard let status = try? session.status(), status.isOutputRunning else { return }
        let samples = source.next(output.writableFrames)
        do {
            try output.write(samples, gain: Float(status.outputGain), port: status.currentRoute.outputs.first?.uid)
        } catch { tell(.failed(error.description)) }
        if source.isAtEnd { finish() }  // the files play what they take: the end is heard now
    }

    /// At the end of the sound (or where it could not be decoded on), once it was heard (a
    /// server's stream is closed then: a new one for the next play()).
    func finish() {
        halt(nil)
        if ahead != nil {  // the source is at the end heard: nothing to settle
            ahead = nil
            source.metering = metering
            closeOutput()
        }
        if let error = source.decodeError {
            tell(.decodeError(error))
            return
        }
        source.seek(to: 0)
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
            guard shouldResume, options.resumesAfterInterruption else {
                tell(.interruptionEnded(shouldResume: shouldResume))  // SO2: the app decides
                return
            }
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
