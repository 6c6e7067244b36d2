import AudioSessionClient
import AudioSessionModel
import AudioSessionSound
import CAudioSessionServices
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// System Sound Services (SO6): short sounds decoded when created, each play a stream of its own
/// through the one playback path, tagged as a system sound so the daemon leaves it as it is —
/// mixed with everything, never ducked, whatever the app's category and activation. Silent while
/// the session's status says system sounds are (the silent switch, a system call: SO6's decision).
/// Plays and completions on the library's system-sound thread.
final class CSystemSounds: @unchecked Sendable {
    static let shared = CSystemSounds()

    /// The longest sound created, as on iOS.
    static let maximumSeconds = 30.0

    struct Sound {
        let samples: [Float]
        let channels: Int
        let sampleRate: Int
        var completion: (procedure: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?)?
    }

    private struct Playing {
        let id: SystemSoundID
        let sound: Sound
        let output: SampleOutput
        var position = 0
    }

    /// Completions run on it, so a completion may dispose its sound or set another (Apple's own
    /// pattern) without waiting for itself.
    private let thread = CallbackThread(label: "audiosession.system-sounds")
    private var ticker: Ticker { thread.ticker }
    // The queue's.
    private var sounds: [SystemSoundID: Sound] = [:]
    private var next: SystemSoundID = 0x1001
    private var playing: [Playing] = []
    private var ticks = 0

    private var session: AudioSession { CSession.processSession }

    func create(path: String) throws(CStatus) -> SystemSoundID {
        guard access(path, F_OK) == 0 else { throw CStatus(Int(kAudio_FileNotFoundError)) }
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: path) } catch {
            throw CStatus(Int(kAudioServicesSystemSoundUnspecifiedError))
        }
        defer { reader.close() }
        guard reader.duration <= Self.maximumSeconds else {
            throw CStatus(Int(kAudioServicesSystemSoundExceededMaximumDurationError))
        }
        let sound = Sound(samples: reader.read(reader.frames), channels: reader.channels, sampleRate: reader.sampleRate)
        return thread.sync {
            let id = next
            next += 1
            sounds[id] = sound
            return id
        }
    }

    func dispose(_ id: SystemSoundID) throws(CStatus) {
        let known = thread.sync { sounds.removeValue(forKey: id) != nil }
        guard known else { throw CStatus(Int(kAudio_ParamError)) }
    }

    func setCompletion(
        _ id: SystemSoundID,
        _ completion: (procedure: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?)?
    ) throws(CStatus) {
        let known = thread.sync { () -> Bool in
            guard sounds[id] != nil else { return false }
            sounds[id]?.completion = completion
            return true
        }
        guard known else { throw CStatus(Int(kAudio_ParamError)) }
    }

    /// Plays at once (asynchronously, as on iOS: the call does not wait for the sound server).
    func play(_ id: SystemSoundID) {
        thread.async { [self] in
            guard let sound = sounds[id] else { return }
            // Silent now (the silent switch, a system call) or nothing to play (the vibrator): done.
            let silenced = (try? session.status())?.systemSoundsSilenced ?? false
            guard !silenced, id != SystemSoundID(kSystemSoundID_Vibrate), !sound.samples.isEmpty else {
                return complete(id, sound)
            }
            do {
                let output = try SampleOutput(
                    endpoint: .automatic, app: session.appID.rawValue, role: "event", channels: sound.channels,
                    sampleRate: sound.sampleRate, bufferDuration: 0.02, systemSound: true)
                output.cork(false)
                playing.append(Playing(id: id, sound: sound, output: output))
                ticker.start { [weak self] in self?.tick() }
            } catch {
                complete(id, sound)  // no sound server: nothing to hear, but the app is told it is over
            }
        }
    }

    private func complete(_ id: SystemSoundID, _ sound: Sound) {
        guard let completion = sounds[id]?.completion ?? sound.completion else { return }
        completion.procedure(id, completion.clientData)
    }

    private func tick() {
        ticks += 1
        // Every 100 ms: a system call began or the switch went on — what plays stops. The
        // simulated device's files are written onto the route's output, asked on each tick.
        let simulated = playing.contains(where: { $0.output.isSimulated })
        let status = simulated || ticks % 10 == 0 ? try? session.status() : nil
        let silenced = ticks % 10 == 0 && (status?.systemSoundsSilenced ?? false)
        let port = simulated ? status?.currentRoute.outputs.first?.uid ?? "speaker" : nil
        var finished: [Playing] = []
        playing = playing.compactMap { item in
            var item = item
            let total = item.sound.samples.count / item.sound.channels
            if !silenced, item.position < total {
                let count = min(item.output.writableFrames, total - item.position)
                let start = item.position * item.sound.channels
                try? item.output.write(
                    Array(item.sound.samples[start..<start + count * item.sound.channels]), gain: 1, port: port)
                item.position += count
            }
            guard silenced || (item.position >= total && item.output.bufferedSeconds < 0.005) else { return item }
            if silenced { item.output.flush() }
            item.output.close()
            finished.append(item)
            return nil
        }
        if playing.isEmpty { ticker.stop() }
        for item in finished { complete(item.id, item.sound) }
    }
}
