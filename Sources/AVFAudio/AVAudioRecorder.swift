import AudioSession
import AudioSessionMedia
import CSndFile
import Foundation
import Synchronization

/// Apple's `AVAudioRecorderDelegate`: every method optional; called on the main queue.
public protocol AVAudioRecorderDelegate: NSObjectProtocol {
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?)
    func audioRecorderBeginInterruption(_ recorder: AVAudioRecorder)
    func audioRecorderEndInterruption(_ recorder: AVAudioRecorder, withOptions flags: Int)
}

extension AVAudioRecorderDelegate {
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) {}
    public func audioRecorderBeginInterruption(_ recorder: AVAudioRecorder) {}
    public func audioRecorderEndInterruption(_ recorder: AVAudioRecorder, withOptions flags: Int) {}
}

/// Apple's `AVAudioRecorder` (SPEC §19 SO3): the session's input written to a file as it comes —
/// linear PCM into WAV, AIFF or CAF by the URL's extension, FLAC, or Opus/Vorbis in Ogg — a
/// shape over `AudioSessionMedia.AudioRecorder`. WAV, AIFF and CAF headers are kept up to date as
/// it records, so the file is valid at every moment. `record()` activates the session (IO1; the
/// category must have input; refused → false); without record permission it records silence
/// (P3); an interruption pauses it (BeginInterruption) and, at the end with shouldResume, the
/// session is reactivated before EndInterruption — the app calls `record()`.
open class AVAudioRecorder: NSObject, @unchecked Sendable {
    private let recorder: AudioRecorder
    private let session: AudioSession
    private let delegateBox = Mutex<Delegate>(Delegate())
    private let meters = Metering()

    private struct Delegate: @unchecked Sendable { weak var value: (any AVAudioRecorderDelegate)? }

    public let url: URL
    /// The settings it records with, as given (with the sample rate and channels it chose when not).
    public let settings: [String: Any]

    /// What it records, as the file's sample rate and channels say (EN1: deinterleaved 32-bit float).
    open var format: AVAudioFormat {
        AVAudioFormat(
            processingRate: (settings[AVSampleRateKey] as? NSNumber)?.doubleValue ?? 48_000,
            channels: (settings[AVNumberOfChannelsKey] as? NSNumber)?.intValue ?? 1)
    }
    /// Seconds recorded, across pauses.
    open var currentTime: TimeInterval { recorder.currentTime }
    open var isRecording: Bool { recorder.isRecording }

    /// - Throws: an NSError in `NSOSStatusErrorDomain` saying which setting or path is wrong:
    ///   `'fmt?'` for a format it cannot write (an unknown format id, 0 channels, rate 0), `'wht?'`
    ///   for a URL that is no file or a directory that does not exist.
    public convenience init(url: URL, settings: [String: Any]) throws {
        try self.init(url: url, settings: settings, session: .sharedInstance())
    }

    /// Ours: a recorder of a given session, on an endpoint (see AVAudioPlayer's).
    public init(url: URL, settings: [String: Any], session: AVAudioSession, endpoint: AudioEndpoint = .automatic) throws {
        guard url.isFileURL else {
            throw AudioFileStatus.error(
                AudioFileStatus.unspecified, "AVAudioRecorder records to files only: \(url) is no file URL")
        }
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioFileStatus.error(
                AudioFileStatus.unspecified, "AVAudioRecorder cannot write \(url.path): no directory \(directory)")
        }
        self.session = session.session
        let format = try Self.format(settings, extension: url.pathExtension.lowercased(), session: session.session)
        var chosen = settings
        chosen[AVSampleRateKey] = NSNumber(value: Double(format.sampleRate))
        chosen[AVNumberOfChannelsKey] = NSNumber(value: format.channels)
        self.settings = chosen
        self.url = url
        recorder = AudioRecorder(path: url.path, session: session.session, endpoint: endpoint, format: format)
        recorder.resumesAfterInterruption = false  // SO3: the app calls record()
        super.init()
        recorder.eventHandler = { [weak self] event in self?.handle(event) }
    }

    deinit { recorder.stop() }

    /// SO3: the file format libsndfile writes for these settings and this extension.
    /// `who` names the caller in the errors (AVAudioFile writes with the same settings).
    static func format(
        _ settings: [String: Any], extension: String, session: AudioSession, who: String = "AVAudioRecorder"
    )
        throws -> AudioRecorder.Format
    {
        func number(_ key: String) -> NSNumber? { settings[key] as? NSNumber }
        let id = number(AVFormatIDKey)?.uint32Value ?? kAudioFormatLinearPCM
        let rate = number(AVSampleRateKey)?.doubleValue ?? session.sampleRate
        let channels = number(AVNumberOfChannelsKey)?.intValue ?? 1
        guard rate >= 8_000, rate <= 192_000 else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat, "\(who): AVSampleRateKey \(rate) is not 8000…192000 Hz")
        }
        guard (1...8).contains(channels) else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat, "\(who): AVNumberOfChannelsKey \(channels) is not 1…8")
        }
        var code: Int32
        switch id {
        case kAudioFormatLinearPCM:
            let isFloat = number(AVLinearPCMIsFloatKey)?.boolValue ?? false
            let depth = number(AVLinearPCMBitDepthKey)?.intValue ?? (isFloat ? 32 : 16)
            let subtypes: [Int: Int32] =
                isFloat
                ? [32: Int32(SF_FORMAT_FLOAT), 64: Int32(SF_FORMAT_DOUBLE)]
                : [
                    8: Int32(SF_FORMAT_PCM_U8), 16: Int32(SF_FORMAT_PCM_16), 24: Int32(SF_FORMAT_PCM_24),
                    32: Int32(SF_FORMAT_PCM_32),
                ]
            guard let subtype = subtypes[depth] else {
                throw AudioFileStatus.error(
                    AudioFileStatus.unsupportedDataFormat,
                    "\(who): AVLinearPCMBitDepthKey \(depth) is not one linear PCM\(isFloat ? " float" : "") is written with"
                )
            }
            let containers: [String: Int32] = [
                "wav": Int32(SF_FORMAT_WAV), "wave": Int32(SF_FORMAT_WAV), "aif": Int32(SF_FORMAT_AIFF),
                "aiff": Int32(SF_FORMAT_AIFF), "caf": Int32(SF_FORMAT_CAF),
            ]
            guard let container = containers[`extension`] else {
                throw AudioFileStatus.error(
                    AudioFileStatus.unsupportedFileType,
                    "\(who): linear PCM is written to .wav, .aif, .aiff or .caf, not .\(`extension`)")
            }
            code = container | subtype
            if subtype == Int32(SF_FORMAT_PCM_U8), container != Int32(SF_FORMAT_WAV) {
                code = container | Int32(SF_FORMAT_PCM_S8)
            }
        case kAudioFormatFLAC: code = Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)
        case kAudioFormatOpus: code = Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        case kAudioFormatMPEG4AAC, kAudioFormatAppleLossless:
            let encoded = try Self.encoded(settings, id: id, extension: `extension`, rate: rate, channels: channels, who: who)
            return AudioRecorder.Format(file: .encoded(encoded), channels: channels, sampleRate: Int(rate))
        default:
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat,
                "\(who): AVFormatIDKey \(Self.fourCC(id)) is not written here (linear PCM, AAC, Apple Lossless, FLAC and Opus are)"
            )
        }
        var info = SF_INFO()
        (info.format, info.channels, info.samplerate) = (code, Int32(channels), Int32(rate))
        guard sf_format_check(&info) != 0 else {
            throw AudioFileStatus.error(
                AudioFileStatus.unsupportedDataFormat,
                "\(who): libsndfile cannot write \(Self.fourCC(id)) at \(Int(rate)) Hz, \(channels) channels into .\(`extension`)"
            )
        }
        return AudioRecorder.Format(file: .libsndfile(code), channels: channels, sampleRate: Int(rate))
    }

    static func fourCC(_ id: AudioFormatID) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8((id >> $0) & 0xFF) }
        return bytes.allSatisfy { (0x20..<0x7F).contains($0) } ? "'\(String(decoding: bytes, as: UTF8.self))'" : "\(id)"
    }

    // MARK: Delegate

    open weak var delegate: (any AVAudioRecorderDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    private func onMain(_ call: @escaping @Sendable (any AVAudioRecorderDelegate, AVAudioRecorder) -> Void) {
        DispatchQueue.main.async { [self] in
            if let delegate { call(delegate, self) }
        }
    }

    private func handle(_ event: AudioRecorder.Event) {
        switch event {
        case .paused:
            onMain { $0.audioRecorderBeginInterruption($1) }
        case .interruptionEnded(let shouldResume):
            if shouldResume { try? session.setActive(true) }  // the seeds: reactivated for it
            let flags = shouldResume ? AVAudioSession.InterruptionOptions.shouldResume.rawValue : 0
            onMain { $0.audioRecorderEndInterruption($1, withOptions: Int(flags)) }
        case .finished:
            onMain { $0.audioRecorderDidFinishRecording($1, successfully: true) }
        case .encodeError(let why):
            let error = AudioFileStatus.error(AudioFileStatus.unspecified, "AVAudioRecorder: \(why)")
            onMain { $0.audioRecorderEncodeErrorDidOccur($1, error: error) }
        }
    }

    // MARK: Recording

    /// Creates the file ahead of `record()`.
    @discardableResult
    open func prepareToRecord() -> Bool { true }

    /// Records (IO1). False when the session may not record now (A3, a category without input).
    @discardableResult
    open func record() -> Bool {
        do { try recorder.record() } catch { return false }
        return true
    }

    @discardableResult
    open func record(forDuration duration: TimeInterval) -> Bool {
        do { try recorder.record(forDuration: duration) } catch { return false }
        return true
    }

    @discardableResult
    open func record(atTime time: TimeInterval) -> Bool {
        let delay = time - deviceCurrentTime
        guard delay > 0 else { return record() }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in _ = self?.record() }
        return true
    }

    open var deviceCurrentTime: TimeInterval { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    open func pause() { recorder.pause() }

    /// Finishes the file (complete and valid) and tells the delegate it finished successfully.
    open func stop() {
        let wasStarted = recorder.currentTime > 0 || recorder.isRecording
        recorder.stop()
        if wasStarted { onMain { $0.audioRecorderDidFinishRecording($1, successfully: true) } }
    }

    /// Removes the file (stopped first). False when there was none to remove.
    @discardableResult
    open func deleteRecording() -> Bool {
        recorder.stop()
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    // MARK: Metering

    open var isMeteringEnabled: Bool {
        get { meters.isEnabled }
        set { meters.enable(newValue) { _ = recorder.takeLevels() } }
    }

    /// Takes the levels of what it recorded since the last call (with metering enabled).
    open func updateMeters() { meters.update { recorder.takeLevels() } }

    /// dBFS, −160 for silence (or a channel it does not have).
    open func averagePower(forChannel channelNumber: Int) -> Float { meters.average(channelNumber) }

    open func peakPower(forChannel channelNumber: Int) -> Float { meters.peak(channelNumber) }
}
