import AudioSessionModel
import AudioSessionRuntime
import CPulse

/// Other audio on a real server (SPEC OA1, OA2, D1, C11, I4): each stream of an app that does
/// not use us is reported to the arbiter as other audio (`SystemEvent.otherAudioStarted`, id
/// `pulse:INDEX`), which governs it as the engine's own concept: it counts in
/// `otherAudioPlaying`; the arbiter's gain for it (the duck level while an app's duckOthers
/// session is active) multiplies its volume; it is muted while a non-mixable session plays (a
/// client cannot pause another's stream) or a call is on. The device policy (§17, POL2) may make
/// a stream a system session while it plays instead — a call (I4: the built-in rule for
/// `media.role=phone`) or an alarm — and sets a duck level for its role (POL3).
///
/// Ducks stay out of the server's saved per-role volumes (module-stream-restore, and PipeWire's
/// restore): a stream starting while others of its role are ducked may start at the ducked
/// volume the server saved, so its own volume is taken to be the role's volume from before
/// the duck — it is ducked once, not twice, and comes back to the role's own volume.
extension PulseBackend {
    struct ForeignStream {
        /// POL2: the system session it holds while it plays (a call, an alarm), or nil: other audio.
        var system: SystemSessionKind?
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
        /// What the arbiter asks: muted (OA2, I4).
        var muted = false
    }

    /// The other-audio id of a foreign stream, and back.
    static func otherAudioID(of index: UInt32) -> String { "pulse:\(index)" }
    static func streamIndex(of id: String) -> UInt32? {
        id.hasPrefix("pulse:") ? UInt32(id.dropFirst(6)) : nil
    }

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
        let facts = StreamFacts(
            role: role, applicationName: stream.properties["application.name"],
            binary: stream.properties["application.process.binary"])
        let rules = arbiter.rules
        let (action, origin) = rules.policy.action(for: facts)
        if case .session(let intent) = action, hostStream(stream, facts, intent, origin: origin) { return }
        var system: SystemSessionKind?
        if case .system(let kind) = action {
            // POL5: in the system trust mode, only the roles the configuration allows.
            if rules.trust.allowsSystemSession(forRole: role) {
                system = kind
            } else {
                logger.notice(
                    "a stream stays other audio: its role may not begin a system session (trust.system-session-roles)",
                    metadata: ["stream": "\(stream.index)", "role": "\(role ?? "none")", "policy": "\(origin)"])
            }
        }
        let foreign = ForeignStream(system: system, role: role, channels: stream.channels, ownVolume: ownVolume)
        if let system {
            // One system session of a kind however many streams hold it (several phone streams: one call).
            let holding = state.withLock { $0.streams.values.filter { $0.system == system }.count }
            if holding == 0, let error = arbiter.report(.systemSession(system, begin: true)) {
                logger.warning(
                    "cannot begin a system session for a stream",
                    metadata: ["stream": "\(stream.index)", "session": "\(system)", "policy": "\(origin)", "error": "\(error)"])
            }
        }
        state.withLock { $0.streams[stream.index] = foreign }
        if system == nil {
            let name = stream.properties["application.name"].flatMap { OtherAudio.isValidLabel($0) ? $0 : nil } ?? ""
            let audio = OtherAudio(
                id: Self.otherAudioID(of: stream.index), name: name,
                role: role.flatMap { OtherAudio.isValidLabel($0) ? $0 : nil },
                uid: stream.uid)
            if let error = arbiter.report(.otherAudioStarted(audio)) {
                logger.warning("cannot follow a stream", metadata: ["stream": "\(stream.index)", "error": "\(error)"])
            }
        }
        logger.debug(
            system.map { "system \($0)" } ?? "other audio",
            metadata: [
                "stream": "\(stream.index)", "app": "\(stream.properties["application.name"] ?? "?")", "policy": "\(origin)",
            ])
    }

    func streamRemoved(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams.removeValue(forKey: index) }) else { return }
        guard let system = stream.system else {
            arbiter.report(.otherAudioStopped(id: Self.otherAudioID(of: index)))
            return
        }
        let left = state.withLock { $0.streams.values.filter { $0.system == system }.count }
        if left == 0 { arbiter.report(.systemSession(system, begin: false)) }
    }

    /// On the queue: the gain and mute the arbiter gives a stream of other audio (D1, C11, OA2, I4).
    func applyControl(_ id: String, gain: Double, muted: Bool) {
        guard let index = Self.streamIndex(of: id), let before = state.withLock({ $0.streams[index] }) else { return }
        guard
            let stream = update(
                index,
                { stream in
                    stream.gain = gain
                    stream.muted = muted
                })
        else { return }
        if gain != before.gain {
            rememberRoleVolume(of: stream)
            applyGain(index)
        }
        applyMute(index)
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
        let mute = stream.muted
        guard mute != stream.mutedByUs else { return }
        // CL4: a stream whose program is (becoming) in a call is about to be the call's own: never
        // muted meanwhile, not even for the moment before it changes hands.
        if mute, isClaimedByACall(StreamKey(index: index, isRecord: false)) { return }
        update(index) { $0.mutedByUs = mute }
        setMute(
            index, mute,
            because: mute
                ? "other audio while a call, a system session or a non-mixable session plays (OA4, OA5, I4)"
                : "other audio may play again (OA4)")
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
