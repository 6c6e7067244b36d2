import AudioSessionModel
import Synchronization

/// The simulated device as a backend: its ports come from the profile and its events from
/// `audiosession system …`; what the arbiter asks of it is kept as a mixer would keep it — each
/// app's output gain and each stream of other audio's gain and mute — for status and tests.
public final class SimulatedDevice: AudioBackend {
    /// What the device carries out now.
    public struct Mixer: Hashable, Sendable {
        /// D4: each app's output gain, as last set (1 until the arbiter sets one).
        public var outputGains: [AppID: Double] = [:]
        /// Each stream of other audio playing, with its gain and mute.
        public var otherAudio: [String: OtherAudioControl] = [:]
        /// How many I/O stops the device carried out.
        public var stops = 0
    }

    /// The gain and mute of one stream of other audio.
    public struct OtherAudioControl: Hashable, Sendable {
        public var gain: Double
        public var muted: Bool
    }

    private let state = Mutex(Mixer())

    public init() {}

    public var isSimulated: Bool { true }

    /// What the device carries out now.
    public var mixer: Mixer { state.withLock { $0 } }

    public func carryOut(_ effects: [DeviceEffect]) {
        guard !effects.isEmpty else { return }
        state.withLock { mixer in
            for effect in effects {
                switch effect {
                case .outputGain(let app, let gain): mixer.outputGains[app] = gain
                case .stopIO: mixer.stops += 1
                case .otherAudio(let id, let gain, let muted): mixer.otherAudio[id] = OtherAudioControl(gain: gain, muted: muted)
                case .otherAudioStopped(let id): mixer.otherAudio[id] = nil
                }
            }
        }
    }
}
