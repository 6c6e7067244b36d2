import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization

/// Apple's `AVAudioPlayerDelegate`: every method is optional (empty by default). Called on the
/// main queue, as on iOS.
public protocol AVAudioPlayerDelegate: NSObjectProtocol {
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
    func audioPlayerBeginInterruption(_ player: AVAudioPlayer)
    func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int)
}

extension AVAudioPlayerDelegate {
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
    public func audioPlayerBeginInterruption(_ player: AVAudioPlayer) {}
    public func audioPlayerEndInterruption(_ player: AVAudioPlayer, withOptions flags: Int) {}
}

/// Apple's `AVAudioPlayer` (SPEC §19 SO2): a sound file played through the app's session — on
/// the sound server through the daemon, or the simulated device embedded — a shape over
/// `AudioSessionMedia.AudioPlayer`, which decodes the file as it plays (libsndfile: WAV, AIFF,
/// CAF, FLAC, Ogg Vorbis/Opus, MP3 where the library offers it).
///
/// As on iOS: `play()` activates the session (IO1) and returns false, playing nothing, when that
/// is refused (a call, A3) or the category has no output; an interruption pauses it at once,
/// position kept, and calls `audioPlayerBeginInterruption`; at its end with shouldResume the
/// session is reactivated for it before `audioPlayerEndInterruption(_:withOptions:)` is called
/// with `.shouldResume`, and the app calls `play()`; a route change never pauses it; ducking and
/// silencing reach its samples through the session's gain, `volume` reads what the app set.
open class AVAudioPlayer: NSObject, @unchecked Sendable {
    private let player: AudioPlayer
    private let session: AudioSession
    private let delegateBox = Mutex<Delegate>(Delegate())
    private let meters = Metering()
    private let options = Mutex<(enableRate: Bool, rate: Float, prepared: Bool)>((false, 1, false))

    private struct Delegate: @unchecked Sendable { weak var value: (any AVAudioPlayerDelegate)? }

    /// The file it plays (nil for one made from data).
    public let url: URL?
    /// The data it plays (nil for one made from a file).
    public let data: Data?

    /// Plays a file. - Throws: an NSError in `NSOSStatusErrorDomain` saying which file and why
    /// (a URL that is no file, a missing file, one libsndfile cannot read).
    public convenience init(contentsOf url: URL) throws { try self.init(contentsOf: url, session: .sharedInstance()) }

    public convenience init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        try self.init(contentsOf: url, session: .sharedInstance())
    }

    /// Plays a file's bytes held in memory. - Throws: as `init(contentsOf:)`.
    public convenience init(data: Data) throws { try self.init(data: data, session: .sharedInstance()) }

    public convenience init(data: Data, fileTypeHint utiString: String?) throws {
        try self.init(data: data, session: .sharedInstance())
    }

    /// Ours: a player of a given session (several apps in one process, tests), on an endpoint
    /// (`AUDIOSESSION_RENDER_DIR`'s simulated device by default when set, else the sound server).
    public init(contentsOf url: URL, session: AVAudioSession, endpoint: AudioEndpoint = .automatic) throws {
        guard url.isFileURL else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioPlayer plays files only: \(url) is no file URL")
        }
        self.url = url
        data = nil
        self.session = session.session
        player = try Self.open(url.path, session: session.session, endpoint: endpoint)
        super.init()
        listen()
    }

    /// Ours: as `init(contentsOf:session:endpoint:)`, for bytes in memory.
    public init(data: Data, session: AVAudioSession, endpoint: AudioEndpoint = .automatic) throws {
        // libsndfile reads a file: the bytes are written to one that is removed at once (the
        // open file stays readable) — decoded as it plays, as a file is.
        let path = NSTemporaryDirectory() + "/avaudioplayer-\(getpid())-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioPlayer cannot hold the data in \(path)")
        }
        defer { unlink(path) }
        url = nil
        self.data = data
        self.session = session.session
        player = try Self.open(path, session: session.session, endpoint: endpoint)
        super.init()
        listen()
    }

    private static func open(_ path: String, session: AudioSession, endpoint: AudioEndpoint) throws -> AudioPlayer {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioPlayer cannot open \(path): no such file")
        }
        do {
            let player = try AudioPlayer(contentsOf: path, session: session, endpoint: endpoint)
            player.resumesAfterInterruption = false  // SO2: the app calls play()
            player.pausesOnUnplug = false  // SO2: a route change never pauses it
            player.isMetering = false  // until isMeteringEnabled: measuring costs CPU on every block
            return player
        } catch {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedFileType, "AVAudioPlayer cannot play \(path): \(error.description)")
        }
    }

    deinit { player.stop(rewinding: false) }  // SO7: nothing left on the sound server

    private func listen() {
        player.eventHandler = { [weak self] event in self?.handle(event) }
    }

    // MARK: Delegate

    open weak var delegate: (any AVAudioPlayerDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    /// The delegate, on the main queue (as iOS calls it).
    private func onMain(_ call: @escaping @Sendable (any AVAudioPlayerDelegate, AVAudioPlayer) -> Void) {
        DispatchQueue.main.async { [self] in
            if let delegate { call(delegate, self) }
        }
    }

    private func handle(_ event: AudioPlayer.Event) {
        switch event {
        case .paused(.interruption):
            onMain { $0.audioPlayerBeginInterruption($1) }
        case .interruptionEnded(let shouldResume):
            // The seeds: "the system takes care of audio session reactivation upon interruption end".
            if shouldResume { try? session.setActive(true) }
            let flags = shouldResume ? AVAudioSession.InterruptionOptions.shouldResume.rawValue : 0
            onMain { $0.audioPlayerEndInterruption($1, withOptions: Int(flags)) }
        case .finished:
            onMain { $0.audioPlayerDidFinishPlaying($1, successfully: true) }
        case .decodeError(let why), .failed(let why):
            let error = AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioPlayer: \(why)")
            onMain { $0.audioPlayerDecodeErrorDidOccur($1, error: error) }
        case .started, .resumed, .paused: break
        }
    }

    // MARK: Playing

    /// Opens the output ahead of `play()`. False when the sound server cannot be reached.
    @discardableResult
    open func prepareToPlay() -> Bool {
        do { try player.prepare() } catch { return false }
        options.withLock { $0.prepared = true }
        return true
    }

    /// Plays (IO1: activates the session). False, and nothing plays, when the session may not
    /// play now (A3 during a call) or its category has no output.
    @discardableResult
    open func play() -> Bool {
        do { try player.play() } catch { return false }
        return true
    }

    /// Plays at `time` on `deviceCurrentTime`'s clock (at once for a time past).
    @discardableResult
    open func play(atTime time: TimeInterval) -> Bool {
        let delay = time - deviceCurrentTime
        guard delay > 0 else { return play() }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in _ = self?.play() }
        return true
    }

    /// Pauses where it is; `play()` goes on from there.
    open func pause() { player.pause() }

    /// Stops; the position is kept, the output closed (prepareToPlay undone). The session stays active.
    open func stop() {
        player.stop(rewinding: false)
        options.withLock { $0.prepared = false }
    }

    open var isPlaying: Bool { player.isPlaying }

    /// Seconds into the sound, read and set (also while playing).
    open var currentTime: TimeInterval {
        get { player.currentTime }
        set { player.currentTime = newValue }
    }

    open var duration: TimeInterval { player.duration }

    /// A monotonic clock in seconds, for `play(atTime:)`.
    open var deviceCurrentTime: TimeInterval { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Times played again after the first; −1 until stopped.
    open var numberOfLoops: Int {
        get { player.numberOfLoops }
        set { player.numberOfLoops = newValue }
    }

    /// 0…1, what the app set (the session's duck or silence applies on top, never here).
    open var volume: Float {
        get { player.volume }
        set { player.volume = newValue }
    }

    open func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) {
        player.setVolume(volume, fadeDuration: duration)
    }

    /// −1 (left) … 1 (right), for a stereo sound.
    open var pan: Float {
        get { player.pan }
        set { player.pan = newValue }
    }

    /// Whether `rate` applies (set before `prepareToPlay`, as on iOS).
    open var enableRate: Bool {
        get { options.withLock { $0.enableRate } }
        set {
            let rate = options.withLock { options -> Float in
                options.enableRate = newValue
                return options.rate
            }
            player.rate = newValue ? Double(rate) : 1
        }
    }

    /// 0.5…2 (1: normal), with `enableRate`.
    open var rate: Float {
        get { options.withLock { $0.rate } }
        set {
            let clamped = min(2, max(0.5, newValue))
            if options.withLock({ options -> Bool in
                options.rate = clamped
                return options.enableRate
            }) {
                player.rate = Double(clamped)
            }
        }
    }

    open var numberOfChannels: Int { player.channels }

    /// The samples it plays: deinterleaved 32-bit float at the file's rate and channels (EN1).
    open var format: AVAudioFormat { AVAudioFormat(processingRate: Double(player.sampleRate), channels: player.channels) }

    /// The file's format as iOS's settings dictionary says it.
    open var settings: [String: Any] {
        [
            AVFormatIDKey: NSNumber(value: kAudioFormatLinearPCM), AVSampleRateKey: NSNumber(value: Double(player.sampleRate)),
            AVNumberOfChannelsKey: NSNumber(value: player.channels),
        ]
    }

    // MARK: Metering

    open var isMeteringEnabled: Bool {
        get { meters.isEnabled }
        set {
            player.isMetering = newValue  // what is buffered is written again to be metered
            meters.enable(newValue) { _ = player.takeLevels() }
        }
    }

    /// Takes the levels of what it played since the last call (with metering enabled).
    open func updateMeters() { meters.update { player.takeLevels() } }

    /// dBFS, −160 for silence (or a channel it does not have).
    open func averagePower(forChannel channelNumber: Int) -> Float { meters.average(channelNumber) }

    open func peakPower(forChannel channelNumber: Int) -> Float { meters.peak(channelNumber) }
}
