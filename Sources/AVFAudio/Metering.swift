import Synchronization

/// AVAudioPlayer's and AVAudioRecorder's metering (SO2, SO3): on or off, and the levels the last
/// `updateMeters()` took — per channel, dBFS, −160 for silence or a channel it does not have.
final class Metering: Sendable {
    private let state = Mutex<(enabled: Bool, levels: [(average: Double, peak: Double)])>((false, []))

    var isEnabled: Bool { state.withLock { $0.enabled } }

    /// Turns it on or off; `discard` drops what was measured before (metering starts now).
    func enable(_ on: Bool, discard: () -> Void) {
        state.withLock { $0.enabled = on }
        discard()
    }

    /// Takes the levels of what played or was recorded since the last call, when on.
    func update(_ take: () -> [(average: Double, peak: Double)]) {
        guard isEnabled else { return }
        let levels = take()
        state.withLock { $0.levels = levels }
    }

    func average(_ channel: Int) -> Float {
        Float(state.withLock { $0.levels.indices.contains(channel) ? $0.levels[channel].average : -160 })
    }

    func peak(_ channel: Int) -> Float {
        Float(state.withLock { $0.levels.indices.contains(channel) ? $0.levels[channel].peak : -160 })
    }
}
