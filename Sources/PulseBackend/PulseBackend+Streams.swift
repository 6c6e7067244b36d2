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
/// OA6: ducks and mutes stay out of the server's saved per-program state (module-stream-restore,
/// WirePlumber's restore-stream): while a stream carries one, its program's own state is kept
/// (`SavedStateLedger`) — a stream of it starting meanwhile starts from its own volume, not from
/// the duck the server may have saved (ducked once, not twice), and a stream ending ducked or
/// muted has its program's own written back as the saved state.
extension PulseBackend {
    struct ForeignStream {
        /// POL2: the system session it holds while it plays (a call, an alarm), or nil: other audio.
        var system: SystemSessionKind?
        var role: String?
        /// OA6: what the server keeps its program's volume and mute under (nil: nothing).
        var group: String?
        var channels: UInt8
        /// The stream's own volume, before any duck of ours (nil: not known yet).
        var ownVolume: UInt32?
        /// Its program's own mute, as it started.
        var ownMuted = false
        var gain: Double = 1
        /// D1: which reports are ours (`WrittenVolumes`).
        var written = WrittenVolumes()
        /// Our last write was a duck (its volume below its own).
        var ducked = false
        var mutedByUs = false
        /// What the arbiter asks: muted (OA2, I4).
        var muted = false

        /// OA6: a change of ours is on the server now.
        var carriesOurs: Bool { ducked || mutedByUs }
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

    /// A foreign stream's own volume as the backend has heard it (D1: the user's or the program's;
    /// a test waits for the user's change to be heard before the arbiter's next step).
    func ownVolume(ofForeign index: UInt32) -> UInt32? { state.withLock { $0.streams[index]?.ownVolume } }

    func streamPresent(_ stream: PulseStream) {
        guard stream.isForeign else { return }
        if state.withLock({ $0.streams[stream.index] }) != nil { return foreignStreamChanged(stream) }
        let role = stream.properties["media.role"]
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
        var foreign = ForeignStream(
            system: system, role: role, group: PulseServer.restoreGroup(of: stream.properties), channels: stream.channels,
            ownMuted: stream.isMuted)
        let saved = savedOwn(of: foreign.group)
        // OA6: started muted by a mute of ours the server saved: ours, undone when the arbiter says so.
        if let saved, stream.isMuted, !saved.muted { (foreign.ownMuted, foreign.mutedByUs) = (false, true) }
        let restoredOurs = adoptFirstVolume(of: stream, into: &foreign, saved: saved)
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
        if restoredOurs { applyGain(stream.index) }
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
        guard
            let stream = state.withLock({ state -> ForeignStream? in
                guard let stream = state.streams.removeValue(forKey: index) else { return nil }
                if let group = stream.group { state.endedWrites[group] = stream.carriesOurs ? stream.written : nil }
                return stream
            })
        else { return }
        if let group = stream.group { streamEnded(index, group: group) }  // OA6, if it carried ours
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
        update(index) { stream in
            stream.gain = gain
            stream.muted = muted
        }
        if gain != before.gain { applyGain(index) }
        applyMute(index)
    }

    /// A report of a stream known already: a volume that is not ours is its own from now on (the
    /// user's, the program's — also while ducked: what the user chose to hear wins until the
    /// next change of its gain); its first known volume is taken as `adoptFirstVolume` says.
    private func foreignStreamChanged(_ stream: PulseStream) {
        // POL3: a role reported after the stream appeared (seen on PipeWire: music ducked to the
        // device's level, not its role's) — its duck level follows.
        if let role = stream.properties["media.role"], OtherAudio.isValidLabel(role) {
            let changed = state.withLock { state -> Bool in
                guard let known = state.streams[stream.index], known.system == nil, known.role != role else { return false }
                state.streams[stream.index]?.role = role
                return true
            }
            if changed { arbiter.otherAudioRoleChanged(Self.otherAudioID(of: stream.index), role: role) }
        }
        var restoredOurs = false
        var overridden = false
        var usersVolume: (group: String, volume: UInt32)?
        var taken: (was: UInt32?, ours: String)?
        let group = state.withLock { $0.streams[stream.index]?.group }
        let saved = savedOwn(of: group)
        // OA6: while a change of ours may be saved for the program, a volume we wrote on another of
        // its streams — or on the one that ended carrying ours — is the server restoring ours on
        // this one (PipeWire restores a moment after the stream appears, maybe before our first
        // write to it, maybe after: a duck of the ended stream, restored after we had written the
        // new one's own, was taken for its own and the unducks "restored" the duck — D1): never
        // taken for its own.
        var restoredFromOthers = false
        if saved != nil, let group, let volume = stream.volume {
            restoredFromOthers = state.withLock { state in
                state.streams.contains { $0.key != stream.index && $0.value.group == group && $0.value.written.contains(volume) }
                    || state.endedWrites[group]?.contains(volume) == true
            }
        }
        let known = update(stream.index) { foreign in
            if stream.channels > 0 { foreign.channels = stream.channels }
            // OA6: muted by the server after it appeared (PipeWire restores a moment later), while
            // its program's own is known unmuted: a mute of ours the server had saved.
            if stream.isMuted, !foreign.mutedByUs, saved?.muted == false { (foreign.ownMuted, foreign.mutedByUs) = (false, true) }
            guard let volume = stream.volume, volume > 0 else { return }  // PipeWire's 0: not known yet
            if foreign.ownVolume == nil {
                restoredOurs = adoptFirstVolume(of: stream, into: &foreign, saved: saved)
            } else if case .others(let late) = foreign.written.classify(volume, writesSeen: stream.writesSeen),
                volume != foreign.ownVolume
            {
                if restoredFromOthers { return restoredOurs = true }  // its own stays; our gain is written again
                taken = (foreign.ownVolume, foreign.written.description)
                foreign.ownVolume = volume
                overridden = late  // our latest write was made without it: made again
                if let group = foreign.group { usersVolume = (group, volume) }  // OA6: the saved state to write back
            }
        }
        if let taken {  // D1: a report taken for the program's or the user's own (what a lost unduck follows)
            logger.debug(
                "a stream's own volume taken from the server's report",
                metadata: [
                    "stream": "\(stream.index)", "volume": "\(stream.volume ?? 0)", "was": "\(taken.was ?? 0)",
                    "asked after writes": "\(stream.writesSeen)", "ours lately": "\(taken.ours)",
                ])
        }
        // PipeWire knows a stream's volume once it runs: ducked before then, the duck applies now.
        if let known, restoredOurs || overridden || (known.gain < 1 && !known.ducked) { applyGain(stream.index) }
        if let known, known.mutedByUs, !known.muted, saved != nil { applyMute(stream.index) }
        if let usersVolume { changeLedger { $0.ownVolume(usersVolume.volume, of: usersVolume.group) } }
    }

    /// A stream's first known volume: its own, unless a change of ours may have been saved for its
    /// program (OA6): then the program's own, kept by the ledger. Whether the stream started from
    /// ours (the server restored a duck or mute of ours): it is given its own.
    private func adoptFirstVolume(
        of stream: PulseStream, into foreign: inout ForeignStream, saved: PulseServer.SavedState?
    ) -> Bool {
        guard let volume = stream.volume, volume > 0 else { return false }
        guard let saved else {
            foreign.ownVolume = volume
            return false
        }
        foreign.ownVolume = saved.volume ?? volume
        return foreign.ownVolume != volume
    }

    /// OA6: a group's own state while a change of ours may be saved for it.
    private func savedOwn(of group: String?) -> PulseServer.SavedState? {
        group.flatMap { group in state.withLock { $0.ledger.own(of: group) } }
    }

    /// Sets the stream's volume to its own volume times its gain, once its own volume is known
    /// (a 0 is never written back: it may be PipeWire's not-yet-known, and would stick).
    private func applyGain(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams[index] }), let own = stream.ownVolume, own > 0 else { return }
        let volume = pa_sw_volume_multiply(own, pa_sw_volume_from_linear(stream.gain))
        guard let server = server.withLock({ $0 }) else { return }
        let number = server.setVolume(stream: index, channels: stream.channels, volume: volume)
        update(index) { stream in
            stream.written.wrote(volume, number: number)
            stream.ducked = volume < own
        }
        followLedger(index)
    }

    func applyMute(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams[index] }) else { return }
        let key = StreamKey(index: index, isRecord: false)
        // CL4: a stream whose program is (becoming) in a call is about to be the call's own: never
        // muted meanwhile, not even for the moment before it changes hands. (Revision 6) Nor one
        // whose program records from a real input: the first half second of a call is not lost.
        let recording = stream.muted && isRecordingProgram(key)
        let mute = stream.muted && !recording && !isClaimedByACall(key)
        guard mute != stream.mutedByUs else { return }
        update(index) { $0.mutedByUs = mute }
        followLedger(index)
        setMute(
            index, mute,
            because: mute
                ? "other audio while a call, a system session or a non-mixable session plays (OA4, OA5, I4)"
                : recording
                    ? "its program records from a real input (CL4)" : "other audio may play again (OA4)")
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
