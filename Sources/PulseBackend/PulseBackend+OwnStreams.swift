import AudioSessionModel
import AudioSessionRuntime
import CPulse
import Dispatch
import Synchronization

/// The client library's own streams (they carry `audiosession.app`): each follows its app's
/// session — a playback stream plays on the sink of the session's current output (RT10) at its
/// own volume times the session's effective gain (D4: ducked, silenced), and is muted while the
/// session's output is not running (I1, A5, IO3: the system stopped it, whatever the app does
/// next); a record stream records from the source of the session's current input.
///
/// Level-triggered: after every arbiter step (`carryOut`) and every change of a stream,
/// each own stream is compared with what its session says now and only the differences are
/// written to the server.
extension PulseBackend {
    struct OwnStream {
        var app: AppID
        var isRecord: Bool
        /// The index of the sink or source it is on now.
        var device: UInt32
        var channels: UInt8
        /// Its own volume (what the app or the user set), before the session's gain.
        var ownVolume: UInt32?
        /// D1: which reports are ours (`WrittenVolumes`).
        var written = WrittenVolumes()
        var appliedVolume: UInt32?
        var appliedMute: Bool?
        /// OA6: what the server keeps its program's volume and mute under (nil: nothing).
        var group: String?
        /// A call's stream (§18): never moved to its session's route (CL4: where its program, or
        /// the user, put it), and muted only while a system session refuses the call (CL3).
        var isCall = false
        /// A program's that never heard of us (a player's, a call's, a hosted stream's), not a
        /// client's: what we write on it is undone when we stop (OA6).
        var isForeign = false
        /// RT13: the moves we asked the server for, not yet seen (ours are never taken for the user's).
        var movesAsked = MovesAsked()
        /// RT13: where its session's route would have put it when the user moved it to a device
        /// its app may not use: not moved back while the route says that.
        var placedByUser: String?

        /// OA6: a change of ours is on the server now.
        var carriesOurs: Bool {
            appliedMute == true || (appliedVolume != nil && ownVolume != nil && appliedVolume != ownVolume)
        }
    }

    struct StreamKey: Hashable {
        var index: UInt32
        var isRecord: Bool
    }

    /// The own streams: app, whether muted by us, and the volume applied (for status and tests).
    public var ownStreams: [UInt32: (app: AppID, muted: Bool, volume: UInt32?)] {
        state.withLock { state in
            var result: [UInt32: (app: AppID, muted: Bool, volume: UInt32?)] = [:]
            for (key, stream) in state.ownStreams where !key.isRecord {
                result[key.index] = (stream.app, stream.appliedMute ?? false, stream.appliedVolume)
            }
            return result
        }
    }

    /// - Parameter written: what we wrote on it before (as other audio), to know its echoes.
    func ownStreamPresent(_ stream: PulseStream, app: String, isCall: Bool = false, written: WrittenVolumes = .init()) {
        let key = StreamKey(index: stream.index, isRecord: stream.isRecord)
        var movedByUser: (app: AppID, sink: String)?
        state.withLock { state in
            if var known = state.ownStreams[key] {
                // RT13 (b): on another sink, and not by a move of ours: the user's.
                let device = state.names[!stream.isRecord]?[stream.device]
                if known.device != stream.device {
                    logger.debug(
                        "own stream moved",
                        metadata: [
                            "stream": "\(stream.index)", "from": "\(state.names[!stream.isRecord]?[known.device] ?? "?")",
                            "to": "\(device ?? "?")", "asked": "\(known.movesAsked)",
                        ])
                }
                if let device, known.movesAsked.seen(on: device, at: DispatchTime.now().uptimeNanoseconds) {
                    // Where we asked: ours, seen.
                } else if known.device != stream.device, let device {
                    // The user's. (A move of ours still pending stays so: asked a moment before the
                    // user's, it may land after it — seen then as ours, the route puts it back.)
                    if !stream.isRecord, !known.isCall, known.app.rawValue == app {
                        movedByUser = (known.app, device)
                        known.placedByUser = known.movesAsked.last ?? state.names[true]?[known.device]
                    }
                }
                if known.app.rawValue != app {
                    // It changed hands (a player's stream is a call's now, or back): what we
                    // applied stays known, so the new keeper's session decides what changes.
                    known.app = AppID(app)
                    known.isCall = isCall
                }
                known.device = stream.device
                if stream.channels > 0 { known.channels = stream.channels }
                // The user's (PipeWire's 0 while not running is not; nor a report older than our write).
                // (One asked before our latest write overrode it: the reconciliation writes it again.)
                if let volume = stream.volume, volume > 0,
                    known.written.classify(volume, writesSeen: stream.writesSeen) != .ours
                {
                    if known.ownVolume == nil, let group = known.group, let saved = state.ledger.own(of: group) {
                        known.ownVolume = saved.volume ?? volume  // OA6: started from a duck of ours
                    } else {
                        known.ownVolume = volume
                        if let group = known.group { _ = state.ledger.ownVolume(volume, of: group) }  // OA6
                    }
                }
                // OA6: muted by the server after it appeared (PipeWire restores a moment later) from a
                // mute of ours it had saved: undone if its session plays.
                if stream.isMuted, known.appliedMute == false, let group = known.group,
                    state.ledger.own(of: group)?.muted == false
                {
                    known.appliedMute = true
                }
                state.ownStreams[key] = known
            } else {
                let group = stream.isRecord ? nil : PulseServer.restoreGroup(of: stream.properties)
                let saved = group.flatMap { state.ledger.own(of: $0) }
                let volume = (stream.volume ?? 0) > 0 ? stream.volume : nil
                state.ownStreams[key] = OwnStream(
                    app: AppID(app), isRecord: stream.isRecord, device: stream.device, channels: stream.channels,
                    ownVolume: volume.map { saved?.volume ?? $0 }, written: written,
                    // Started muted: by a mute of ours the server saved (OA6), undone if its session
                    // plays; or by the user's, left as it is.
                    appliedMute: stream.isMuted ? saved.map { !$0.muted } ?? false : false,
                    group: group, isCall: isCall, isForeign: stream.isForeign)
                logger.debug(
                    "own stream", metadata: ["stream": "\(stream.index)", "app": "\(app)", "record": "\(stream.isRecord)"])
            }
        }
        if let movedByUser { userMoved(key, app: movedByUser.app, to: movedByUser.sink) }  // RT13 (b)

        reconcileOwnStreams()
    }

    /// Whether the removed stream was one of ours (then it is forgotten).
    func ownStreamRemoved(_ index: UInt32, isRecord: Bool) -> Bool {
        guard let stream = state.withLock({ $0.ownStreams.removeValue(forKey: StreamKey(index: index, isRecord: isRecord)) })
        else { return false }
        if let group = stream.group { streamEnded(index, group: group) }  // OA6, if it carried ours
        return true
    }

    /// Brings every own stream in line with its session as the engine says now.
    func reconcileOwnStreams() {
        let streams = state.withLock { $0.ownStreams }
        guard !streams.isEmpty else { return }
        for (key, stream) in streams {
            guard let status = arbiter.status(of: stream.app) else { continue }  // the app is gone: left alone
            if !stream.isCall,
                let target = deviceName(
                    for: stream.isRecord ? status.currentRoute.inputs.first : status.currentRoute.outputs.first)
            {
                // RT13: where the user put it stays while its route says what it said then.
                let placed = stream.placedByUser
                if placed != nil, placed != target { update(own: key) { $0.placedByUser = nil } }
                let current = state.withLock { $0.names[!stream.isRecord]?[stream.device] }
                // Where the route says, with only moves there pending: they are moot (the server
                // put it there itself).
                let moves = stream.movesAsked
                if current == target, !moves.isEmpty, moves.allTo(target) { update(own: key) { $0.movesAsked.forget() } }
                // Not where the route says — or where it says, with a move of ours elsewhere still on
                // its way (the route changed back before it was seen: it lands after, and this one
                // follows it). A move asked and not seen yet is not asked again.
                if placed != target, moves.last != target, current != target || moves.hasMove(elsewhereThan: target) {
                    update(own: key) { $0.movesAsked.asked(target, at: DispatchTime.now().uptimeNanoseconds) }  // RT13: ours
                    server.withLock { $0 }?.move(stream: key.index, isRecord: key.isRecord, to: target)  // RT10
                    logger.debug("moved own stream", metadata: ["stream": "\(key.index)", "to": "\(target)"])
                }
            }
            guard !stream.isRecord else { continue }
            var mute = !status.isOutputRunning || status.outputGain == 0  // I1, A5, IO3; D2, D3, D5, C11
            // CL3, CL4: a call is muted only while a system session refuses it (A3, I4) — never
            // because an app interrupted it (the user playing music during a meeting): our software
            // never makes a call worse than none.
            // (The device's status is read only then: not on every reconciliation, a duck's path.)
            if mute, stream.isCall, arbiter.deviceStatus.systemSessions.isEmpty { mute = false }
            // CL4: a player's stream whose program is (becoming) in a call is about to be the
            // call's: never muted meanwhile (its player is interrupted by that very call).
            if mute, !stream.isCall, isClaimedByACall(key) { continue }
            var wrote = false
            if mute != stream.appliedMute {
                wrote = true
                update(own: key) { $0.appliedMute = mute }
                // CL7: every mute and unmute logged with its cause (only a change of ours; the
                // first unmuted state of a new stream is no change).
                if mute || stream.appliedMute == true {
                    setMute(
                        key.index, mute, because: mute ? Self.muteReason(status, app: stream.app) : "\(stream.app) plays again")
                } else {
                    server.withLock { $0 }?.setMute(stream: key.index, false)
                }
            }
            if let own = stream.ownVolume {
                let volume = pa_sw_volume_multiply(own, pa_sw_volume_from_linear(status.outputGain))  // D4
                // A new stream at its own volume needs no write.
                if volume != (stream.appliedVolume ?? own), status.outputGain > 0,
                    let server = server.withLock({ $0 })
                {
                    let number = server.setVolume(stream: key.index, channels: stream.channels, volume: volume)
                    wrote = true
                    update(own: key) { own in
                        own.appliedVolume = volume
                        own.written.wrote(volume, number: number)
                    }
                }
            }
            // OA6: the ledger follows a change written now, or one on the stream (not every
            // stream on every step).
            if wrote || stream.carriesOurs { followLedger(own: key) }
        }
        followProcessIO()  // SO1: a start refused before may be allowed now
    }

    /// On the queue: an own stream's change of ours came or went: the ledger follows (OA6).
    func followLedger(own key: StreamKey) {
        guard let stream = state.withLock({ $0.ownStreams[key] }), let group = stream.group else { return }
        followLedger(
            key.index, group: group,
            carrying: stream.carriesOurs
                ? .init(group: group, volume: stream.ownVolume, muted: false, channels: stream.channels) : nil)
    }

    static let undoConfirmationSeconds = 5.0

    /// OA6, on the queue: every mute and duck of ours on a stream that is not a client's undone
    /// on the server, and waited for (the daemon stops). The server may save what it is left
    /// with as the program's own: it is left with the program's own.
    func undoOurChanges() {
        guard let server = server.withLock({ $0 }) else { return }
        let (foreign, own) = state.withLock { ($0.streams, $0.ownStreams) }
        var undone = 0
        for (index, stream) in foreign where stream.carriesOurs {
            if stream.mutedByUs { server.setMute(stream: index, false) }
            if stream.ducked, let volume = stream.ownVolume, volume > 0 {
                server.setVolume(stream: index, channels: stream.channels, volume: volume)
            }
            undone += 1
        }
        for (key, stream) in own where stream.isForeign && !key.isRecord && stream.carriesOurs {
            if stream.appliedMute == true { server.setMute(stream: key.index, false) }
            if let volume = stream.ownVolume, let applied = stream.appliedVolume, applied != volume {
                server.setVolume(stream: key.index, channels: stream.channels, volume: volume)
            }
            undone += 1
        }
        // The daemon is stopping: the server's word that it has them is worth a few seconds on a
        // loaded machine (a disconnect before it has read them could lose them).
        let confirmed = server.flush(timeout: Self.undoConfirmationSeconds)
        guard undone > 0 else { return }
        if confirmed {
            logger.info("stopping: our mutes and ducks undone (OA6)", metadata: ["streams": "\(undone)"])
        } else {
            logger.warning(
                "stopping: our mutes and ducks undone (OA6), not confirmed by the sound server within \(Self.undoConfirmationSeconds) s",
                metadata: ["streams": "\(undone)"])
        }
    }

    /// CL7: why an own stream is muted, with the rule.
    static func muteReason(_ status: SessionStatus, app: AppID) -> String {
        if status.isInterrupted { return "\(app) is interrupted (I1, PL3)" }
        if !status.isOutputRunning { return "\(app)'s output is not running (A3, A5, IO3)" }
        return "\(app) is silenced (C11, D2, D3, D5)"
    }

    /// Mutes or unmutes a stream on the server, logged at info with the reason (CL7).
    func setMute(_ index: UInt32, _ mute: Bool, because reason: String) {
        server.withLock { $0 }?.setMute(stream: index, mute)
        logger.info(mute ? "muted a stream" : "unmuted a stream", metadata: ["stream": "\(index)", "reason": "\(reason)"])
    }

    /// The server device standing for a session port: an accessory's UID is its name; the
    /// built-in ports are the devices found for them (a receiver plays on the speaker's sink).
    func deviceName(for port: Port?) -> String? {
        guard let port else { return nil }
        return state.withLock { state in
            if state.plugged[port.uid] != nil { return port.uid }
            switch port.type {
            case .speaker, .receiver: return state.builtInSpeaker
            case .microphoneBuiltIn: return state.builtInMicrophone
            default: return nil
            }
        }
    }

    private func update(own key: StreamKey, _ change: (inout OwnStream) -> Void) {
        state.withLock { state in
            guard state.ownStreams[key] != nil else { return }
            change(&state.ownStreams[key]!)
        }
    }
}
