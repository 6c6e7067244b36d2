import AudioSessionModel
import AudioSessionRuntime
import Dispatch

/// RT13: the user's choice of output wins. The backend is the one place that moves streams, so
/// it alone knows which moves are ours; it reports the user's choices as facts through the one
/// door and the engine decides the routes from them:
/// - (a) the server's default sink (what a desktop's sound settings set, or the server itself
///   when a device is plugged) is the device's output choice;
/// - (b) a client's or a player's stream moved by someone else than us to another sink (a mixer:
///   pavucontrol, the desktop's per-application output) is that app's chosen output. A move to
///   the default sink — the server following its default, rescuing a stream from a sink that
///   went away, or the user putting it back — ends the app's choice instead.
/// A stream the user put on a device its app's configuration may not use is left there (never
/// moved back) until its app's route changes for another reason.
extension PulseBackend {
    /// RT13 (a): tells the engine the default sink's port (an accessory's name, the built-in
    /// speaker's UID), or none when the default is no session port; only when that changed.
    func followOutputChoice() {
        let (sink, exists) = state.withLock { state in
            (state.defaultSink, state.defaultSink.map { state.names[true]?.values.contains($0) ?? false } ?? false)
        }
        // Its sink went away (or is not listed yet): the server names the next default soon; a
        // choice whose port is away is not used meanwhile.
        if sink != nil, !exists { return }
        let uid = sink.flatMap { portUID(ofSink: $0) }
        guard state.withLock({ $0.reportedOutputChoice != .some(uid) }) else { return }
        state.withLock { $0.reportedOutputChoice = .some(uid) }
        if let error = arbiter.report(.outputChoice(uid: uid)) {
            logger.warning("cannot take the default output as the output choice", metadata: ["error": "\(error)"])
            return
        }
        logger.info("the user's output choice (RT13)", metadata: ["default output": "\(uid ?? "none")"])
    }

    /// The session port a sink stands for: an accessory's UID is its name; the built-in speaker's
    /// sink is the profile's speaker.
    func portUID(ofSink name: String) -> String? {
        let (plugged, speaker) = state.withLock { ($0.plugged[name] != nil, $0.builtInSpeaker == name) }
        if plugged { return name }
        guard speaker else { return nil }
        return arbiter.deviceStatus.outputs.first { $0.type == .speaker }?.uid
    }

    /// RT13, PipeWire: pipewire-pulse may relink a stream moved by hand, or take a new default
    /// output, with no event at all (one move in five here, 0.3.65 with WirePlumber 0.4), so
    /// while connected to it the default output and the own playback streams are asked for again
    /// once a second: a choice the server did not announce is seen within a second.
    func pollPipeWire() {
        let generation = state.withLock { state -> UInt64? in
            guard state.link.serverName?.contains("PipeWire") == true, !state.pollingMoves else { return nil }
            state.pollingMoves = true
            return state.link.generation
        }
        if let generation { schedulePoll(generation) }
    }

    private func schedulePoll(_ generation: UInt64) {
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [self] in
            let streams = state.withLock { state -> [UInt32]? in
                guard state.link.generation == generation, state.link.lostSince == nil else { return nil }
                return state.ownStreams.filter { !$0.key.isRecord && !$0.value.isCall }.map(\.key.index)
            }
            guard let streams, !closing.load(ordering: .relaxed), let server = server.withLock({ $0 }) else {
                state.withLock { if $0.link.generation == generation { $0.pollingMoves = false } }
                return
            }
            server.askDefaults()
            for index in streams { server.askAgain(stream: index) }
            schedulePoll(generation)
        }
    }

    /// RT13 (b), on the queue: an own playback stream is on another sink than when last seen and
    /// the move was not ours. Reported as the app's choice (or, to the default sink, its end);
    /// refused by the engine (a device its configuration may not use), the stream stays where the
    /// user put it all the same.
    func userMoved(_ key: StreamKey, app: AppID, to sink: String) {
        let isDefault = state.withLock { $0.defaultSink == sink }
        let uid = isDefault ? nil : portUID(ofSink: sink)
        if !isDefault, uid == nil {
            logger.info(
                "a stream was moved by hand to a device that is no session port: left there (RT13)",
                metadata: ["stream": "\(key.index)", "app": "\(app)", "device": "\(sink)"])
            return
        }
        if let error = arbiter.report(.appOutputChoice(app, uid: uid)) {
            logger.info(
                "a stream was moved by hand to a device its app may not use: left there (RT13)",
                metadata: ["stream": "\(key.index)", "app": "\(app)", "device": "\(sink)", "why": "\(error)"])
            return
        }
        logger.info(
            "the user moved an app's stream (RT13)",
            metadata: ["stream": "\(key.index)", "app": "\(app)", "to": "\(uid ?? "the default output")"])
    }
}
