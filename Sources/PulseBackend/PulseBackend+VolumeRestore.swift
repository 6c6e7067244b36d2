import AudioSessionModel
import Dispatch

/// MS3: a restarted server comes back at its defaults (every sink and source at 100 %), its
/// devices a moment after it accepts clients — PipeWire's are made by WirePlumber, maybe after a
/// placeholder sink (`auto_null`) and a default named `@DEFAULT_SINK@` — and the output volume
/// and input gains the engine kept are written back to them, not taken from them.
///
/// A device that appears within `Restoring.window` of the connection is restored until the
/// server reports the kept volume for it (the write confirmed), for at most `Restoring.window`
/// after its own first report: a device that appears later is the server's new one, its volume
/// the user's (counted from the connection alone, a device made late on a loaded machine had
/// little time left to be written, asked and confirmed). A write the server drops or undoes
/// without saying so is noticed: the device is asked again `recheck` after each restoring write,
/// and written again while it is not confirmed. (Before: every device for 3 s after the connection — on a loaded
/// machine PipeWire's sink appeared later and kept its 100 %: ServerRestartTests.)
extension PulseBackend {
    struct Restoring {
        /// How long after the connection a device may first appear and still be restored, and
        /// how long after its first report it is restored at most.
        static let window = Duration.seconds(10)
        /// How long after a restoring write the device is asked again.
        static let recheck = DispatchTimeInterval.milliseconds(600)
        let connected: ContinuousClock.Instant
        /// Each device's end of restoration, by sink (true) or source: its first report + window.
        var until: [Bool: [String: ContinuousClock.Instant]] = [:]
        /// The devices whose kept volume the server has reported back.
        var confirmed: [Bool: Set<String>] = [:]

        init(connected: ContinuousClock.Instant) { self.connected = connected }

        /// Whether the device still gets the kept volume at `now` (its first asking starts its time).
        mutating func restores(_ device: String, isSink: Bool, at now: ContinuousClock.Instant) -> Bool {
            guard confirmed[isSink]?.contains(device) != true else { return false }
            if let end = until[isSink]?[device] { return now < end }
            guard now < connected + Self.window else { return false }  // the server's new device
            until[isSink, default: [:]][device] = now + Self.window
            return true
        }

        /// Whether no device can be restored any more.
        func isOver(at now: ContinuousClock.Instant) -> Bool {
            now >= connected + Self.window && until.values.allSatisfy { $0.values.allSatisfy { now >= $0 } }
        }
    }

    /// Whether a device of the returning server still gets the volume the engine kept.
    func isRestoring(_ device: String, isSink: Bool) -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            guard state.restoring != nil else { return false }
            if state.restoring?.isOver(at: now) == true {
                state.restoring = nil
                return false
            }
            return state.restoring?.restores(device, isSink: isSink, at: now) == true
        }
    }

    /// Writes the kept volume to a device being restored and asks for it again a moment later:
    /// what it says then confirms the write, or brings another one.
    func restore(_ volume: Double, to device: String, isSink: Bool) {
        logger.debug(
            isSink ? "restoring the kept output volume (MS3)" : "restoring the kept input gain (MS3)",
            metadata: ["device": "\(device)", "volume": "\(volume)"])
        write(volume, to: device, isSink: isSink)
        queue.asyncAfter(deadline: .now() + Restoring.recheck) { [weak self] in
            guard let self, isRestoring(device, isSink: isSink),
                let index = state.withLock({ $0.names[isSink]?.first { $0.value == device }?.key })
            else { return }
            state.withLock { $0.volumes[isSink]?[device] = nil }  // its answer is news
            server.withLock { $0 }?.askAgain(device: index, isSink: isSink)
        }
    }

    /// A device's report (not stale): when it is the volume the engine kept for it, its
    /// restoration is done.
    func confirmRestored(_ device: String, isSink: Bool, volume: Double) {
        guard isRestoring(device, isSink: isSink) else { return }
        let kept: Double?
        if isSink {
            kept = state.withLock { $0.volumeSink } == device ? arbiter.deviceStatus.outputVolume : nil
        } else {
            kept = inputPort(for: device).flatMap { arbiter.inputGains[$0] }
        }
        logger.debug(
            "a returning server's device reported (MS3)",
            metadata: ["device": "\(device)", "volume": "\(volume)", "kept": "\(kept.map { "\($0)" } ?? "not its volume")"])
        guard let kept, abs(min(1, volume) - kept) <= Self.volumeStep / 2 else { return }
        state.withLock { _ = $0.restoring?.confirmed[isSink, default: []].insert(device) }
        logger.debug("the kept volume is the server's again (MS3)", metadata: ["device": "\(device)", "volume": "\(volume)"])
    }
}
