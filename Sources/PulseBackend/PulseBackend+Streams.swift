import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import CPulse

/// Other audio on a real server (SPEC OA1, OA2, D1, I4): each stream of an app that does not
/// use us takes part as a session of its own — playback, mixable, output running — so the
/// engine's rules apply to it unchanged: it counts in `otherAudioPlaying`; it is ducked (its
/// volume times the duck level) while another app's duckOthers session is active; it is muted
/// while the silence-secondary-audio hint is on for it, that is while a non-mixable session
/// plays (a client cannot pause another's stream), and while a call interrupts it. A foreign
/// stream with `media.role=phone` is a call (I4).
///
/// Ducks stay out of the server's saved per-role volumes (module-stream-restore, and PipeWire's
/// restore): a stream starting while others of its role are ducked may start at the ducked
/// volume the server saved, so its own volume is taken to be the role's volume from before
/// the duck — it is ducked once, not twice, and comes back to the role's own volume.
extension PulseBackend {
    struct ForeignStream {
        var connection: Arbiter.ConnectionID?
        var isCall: Bool
        var role: String?
        var channels: UInt8
        /// The stream's own volume, before any duck of ours (nil: not known yet).
        var ownVolume: UInt32?
        var gain: Double = 1
        /// Volumes we wrote whose change events have not come back yet: an event reporting one
        /// of them is our own echo, not the user's volume (found by pulse-bench: a stale echo
        /// taken for the stream's own volume left it ducked).
        var written: [UInt32] = []
        var mutedByUs = false
        var silenced = false
        var interrupted = false
    }

    /// The session id of a foreign stream.
    static func appID(of index: UInt32) -> AppID { AppID("pulse.stream.\(index)") }

    /// The foreign streams, by index: whether muted and the gain applied (for status and tests).
    public var foreignStreams: [UInt32: (muted: Bool, gain: Double)] {
        state.withLock { $0.streams.mapValues { ($0.mutedByUs, $0.gain) } }
    }

    func streamPresent(_ stream: PulseStream) {
        guard stream.isForeign else { return }
        if let known = state.withLock({ $0.streams[stream.index] }) {
            // PipeWire reports a new stream at volume 0 until its node runs: 0 is not known yet.
            let wasUnknown = (known.ownVolume ?? 0) == 0
            // While its role is ducked, what the server reports may be a restored duck: the
            // stream's own volume stays the role's.
            let roleVolume = known.role.flatMap { role in state.withLock { $0.roleVolumes[role] } }
            let updated = update(stream.index) { foreign in
                if stream.channels > 0 { foreign.channels = stream.channels }
                if let volume = stream.volume, let echo = foreign.written.firstIndex(of: volume) {
                    foreign.written.removeFirst(echo + 1)  // ours, and any write it superseded
                } else if let roleVolume {
                    foreign.ownVolume = roleVolume
                } else if known.gain == 1 || wasUnknown, let volume = stream.volume {
                    // A volume the user set while we had not ducked it is the stream's own from now on.
                    foreign.ownVolume = volume
                }
            }
            // Ducked before its volume was known: the duck applies now.
            if wasUnknown, known.gain < 1, let updated {
                rememberRoleVolume(of: updated)
                applyGain(stream.index)
            }
            return
        }
        let role = stream.properties["media.role"]
        // A role we have ducked: the server may have started this stream at the ducked volume.
        let ownVolume = role.flatMap { role in state.withLock { $0.roleVolumes[role] } } ?? stream.volume
        var foreign = ForeignStream(isCall: stream.isCall, role: role, channels: stream.channels, ownVolume: ownVolume)
        if stream.isCall {
            let calls = state.withLock { $0.streams.values.filter(\.isCall).count }
            if calls == 0, let error = arbiter.deviceChanged(.systemSession(.call, begin: true)) {
                logger.warning("cannot begin a call for a phone stream", metadata: ["stream": "\(stream.index)", "error": "\(error)"])
            }
        } else {
            let hello = Hello(role: .app(Self.appID(of: stream.index), [.backgroundAudio]))
            let pid = Int32(stream.properties["application.process.id"] ?? "") ?? 0
            switch arbiter.connect(hello, peer: PeerCredentials(pid: pid, uid: 0, gid: 0), sink: StreamSink(backend: self, index: stream.index)) {
            case .success(let connection):
                foreign.connection = connection
                _ = arbiter.handle(.call(.setCategory(.playback, mode: .default, options: .mixWithOthers)), from: connection)
                _ = arbiter.handle(.call(.startOutput), from: connection)  // IO1: activates
            case .failure(let error):
                logger.warning("cannot follow a stream", metadata: ["stream": "\(stream.index)", "error": "\(error)"])
            }
        }
        state.withLock { $0.streams[stream.index] = foreign }
        logger.debug("other audio", metadata: ["stream": "\(stream.index)", "app": "\(stream.properties["application.name"] ?? "?")"])
    }

    func streamRemoved(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams.removeValue(forKey: index) }) else { return }
        if let connection = stream.connection { arbiter.disconnect(connection) }
        let callsLeft = state.withLock { $0.streams.values.filter(\.isCall).count }
        if stream.isCall, callsLeft == 0 { arbiter.deviceChanged(.systemSession(.call, begin: false)) }
    }

    /// On the queue: what the arbiter told a foreign stream's session.
    func apply(_ message: ServerMessage, toStream index: UInt32) {
        switch message {
        case .event(.outputGain(let gain)):  // D1, D4
            guard let stream = update(index, { $0.gain = gain }) else { return }
            rememberRoleVolume(of: stream)
            applyGain(index)
        case .event(.notification(_, .silenceSecondaryAudioHint(let hint))):  // OA2, OA3
            update(index) { $0.silenced = hint == .begin }
            applyMute(index)
        case .event(.notification(_, .interruptionBegan)):  // I1: a call
            update(index) { $0.interrupted = true }
            applyMute(index)
        case .event(.notification(_, .interruptionEnded)):
            update(index) { $0.interrupted = false }
            applyMute(index)
            // The stream still plays: its session takes part again.
            if let connection = state.withLock({ $0.streams[index]?.connection }) {
                _ = arbiter.handle(.call(.startOutput), from: connection)
            }
        default:
            break
        }
    }

    /// Sets the stream's volume to its own volume times its gain, once its own volume is known
    /// (a 0 is never written back: it may be PipeWire's not-yet-known, and would stick).
    private func applyGain(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams[index] }), let own = stream.ownVolume, own > 0 else { return }
        let volume = pa_sw_volume_multiply(own, pa_sw_volume_from_linear(stream.gain))
        update(index) { $0.written.append(volume) }
        server.withLock { $0 }?.setVolume(stream: index, channels: stream.channels, volume: volume)
    }

    /// While a stream of a role is ducked, the role's own volume is kept for streams that start
    /// meanwhile; forgotten when none of the role is ducked any more.
    private func rememberRoleVolume(of stream: ForeignStream) {
        guard let role = stream.role else { return }
        state.withLock { state in
            if stream.gain < 1 {
                if state.roleVolumes[role] == nil, let own = stream.ownVolume, own > 0 { state.roleVolumes[role] = own }
            } else if !state.streams.values.contains(where: { $0.role == role && $0.gain < 1 }) {
                state.roleVolumes[role] = nil
            }
        }
    }

    private func applyMute(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams[index] }) else { return }
        let mute = stream.silenced || stream.interrupted
        guard mute != stream.mutedByUs else { return }
        update(index) { $0.mutedByUs = mute }
        server.withLock { $0 }?.setMute(stream: index, mute)
        logger.debug(mute ? "muted other audio" : "unmuted other audio", metadata: ["stream": "\(index)"])
    }

    @discardableResult
    func update(_ index: UInt32, _ change: (inout ForeignStream) -> Void) -> ForeignStream? {
        state.withLock { state in
            guard state.streams[index] != nil else { return nil }
            change(&state.streams[index]!)
            return state.streams[index]
        }
    }
}

/// A foreign stream's connection to the arbiter: what the arbiter sends (under its lock) is
/// handed to the backend's queue.
struct StreamSink: ConnectionSink {
    let backend: PulseBackend
    let index: UInt32

    func send(_ message: ServerMessage) {
        let backend = backend
        let index = index
        backend.queue.async { backend.apply(message, toStream: index) }
    }

    func close() {}
}
