import AudioSessionModel

/// The one door between the runtime and the device it governs (the simulated device,
/// PulseAudio/PipeWire): the arbiter hands the backend what the device must carry out, and the
/// backend reports what happens on the device with `Arbiter.report(_:)` — ports plugged and
/// unplugged, volumes and input gains changed, other audio started and stopped, calls.
///
/// A backend that follows sessions (a sound server moving each app's own streams to its route,
/// at its gain) reads them with `Arbiter.status(of:)` and `Arbiter.deviceStatus` from its own
/// queue, never from `carryOut`.
public protocol AudioBackend: Sendable {
    /// After every step, with the effects the device must carry out (maybe none: an I/O report
    /// changes what a session's streams do without an effect). Called under the arbiter's lock,
    /// in step order: enqueue only, and never call the arbiter from here.
    func carryOut(_ effects: [DeviceEffect])

    /// Whether the device is simulated (its state may be thrown away by a `reset` for a
    /// scenario run); a real device's is not. Backends are real unless they say otherwise.
    var isSimulated: Bool { get }

    /// §16: a player's app connected or departed — or, SO1, an app of another process — so
    /// streams of its process change hands (`Arbiter.app(forProcess:)`,
    /// `Arbiter.connectedAppProcesses()`). Called under the arbiter's lock: enqueue only.
    func playersChanged()
}

extension AudioBackend {
    public var isSimulated: Bool { false }
    public func playersChanged() {}
}

/// What a step asks of the device.
public enum DeviceEffect: Hashable, Sendable {
    /// D4: an app session's effective output gain (ducked, silenced) changed.
    case outputGain(AppID, Double)
    /// A5, I1, IO3: the system stopped an app's I/O.
    case stopIO(AppID, output: Bool, input: Bool)
    /// D1, C11, OA2, I4: the gain and mute for a stream of other audio (sent when it starts and
    /// whenever either changes).
    case otherAudio(id: String, gain: Double, muted: Bool)
    /// A stream of other audio stopped (reported by the backend): it is governed no more.
    case otherAudioStopped(id: String)
}
