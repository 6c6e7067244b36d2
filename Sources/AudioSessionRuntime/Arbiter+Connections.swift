import AudioSessionEngine
import AudioSessionModel
import AudioSessionWire
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// Who connects and who goes (SPEC §15 T1–T5, §16 PL1): hellos admitted and registered, app ids
// claimed by their uid, the rules reloaded, departures applied as setActive(false) with notify-others.
extension Arbiter {
    /// Accepts a client's hello. Apps are registered (or registered again after their
    /// process departed); a second connection for an app id already connected is refused.
    /// - Returns: the connection's handle, or the error to send in `closing`.
    public func connect(
        _ hello: Hello, peer: PeerCredentials, sink: any ConnectionSink
    ) -> Result<ConnectionID, SessionError> {
        guard hello.version == ProtocolVersion.current else {
            return .failure(
                SessionError(
                    .badParam, "protocol version \(hello.version) is not supported; this daemon speaks \(ProtocolVersion.current)"
                ))
        }
        return state.withLock { state -> Result<ConnectionID, SessionError> in
            let trust = state.rules.trust
            if case .app(let app, _) = hello.role, let problem = Self.problem(with: app) {
                return .failure(problem)  // T3, before the id is logged
            }
            var hello = hello
            if hello.player != nil, trust.mode == .system, case .app(let app, _) = hello.role {
                // PL1 in the system trust mode: a player's app has what the device's manifest for
                // its id grants (none without one), whatever the bridge declares — the device
                // decides, and the player is governed rather than refused.
                hello.role = .app(app, trust.manifests[app]?.capabilities ?? [])
            }
            if let refusal = trust.refusal(of: hello.role, from: peer) {
                logger.warning(
                    "refused a hello the trust policy does not allow", metadata: ["peer": "\(peer)", "error": "\(refusal)"])
                return .failure(refusal)
            }
            // PL9: a bridge that comes back for a player whose session was held takes it back.
            if let taken = takeBack(hello, peer: peer, sink: sink, &state) { return taken }
            if case .app(let app, _) = hello.role, state.heldPlayers.removeValue(forKey: app) != nil {
                depart(app, &state)  // held for another process (the player itself was replaced): let go
            }
            var intent: (DevicePolicy.Intent, origin: String)?
            if let player = hello.player {
                if let refusal = Self.refusal(of: player, from: peer) { return .failure(refusal) }
                // PL1: an MPRIS player whose process is a connected app (an iOS player's
                // MediaPlayer over MPRIS) is that app already: never governed a second time.
                if let own = state.connections.values.first(where: {
                    $0.app != nil && $0.peer.pid == player.processID && $0.peer != .thisProcess
                })?.app {
                    return .failure(
                        SessionError(
                            .badParam,
                            "PL1: this player's process is the connected app \(own)'s; its session governs it already"))
                }
                // POL1: the device policy's intent for the player, or it is not governed at all.
                switch state.rules.policy.action(forPlayer: player.identity, busName: player.busName) {
                case (.ignore, let origin):
                    return .failure(
                        SessionError(.badParam, "POL1: the device policy ignores this player (\(origin)); it stays other audio"))
                case (.intent(let chosen), let origin): intent = (chosen, origin)
                }
            }
            let start = trust.mode == .system ? trust.appStartState : .foreground
            let registered = register(hello, peer: peer, sink: sink, start: start, &state)
            if case .success = registered, let (chosen, origin) = intent, case .app(let app, _) = hello.role {
                // The player's category is the table's from its first step; the bridge sets none.
                state.playerOrigins[app] = origin
                state.engine.setPausesOnDeviceLoss(app, state.rules.policy.playersPauseOnDeviceLoss)  // PL8
                let call = AppCall.setCategory(chosen.category, mode: chosen.mode, options: chosen.options)
                if case .failed(let error) = perform(.app(app, call), &state) {
                    logger.warning("cannot give a player its intent", metadata: ["app": "\(app)", "error": "\(error)"])
                }
            }
            return registered
        }
    }

    /// A connection the trust policy admitted, or the daemon's own (`hostSession`): its app id
    /// claimed and registered, then the connection recorded.
    func register(
        _ hello: Hello, peer: PeerCredentials, sink: any ConnectionSink, start: AppState, _ state: inout State
    ) -> Result<ConnectionID, SessionError> {
        if case .app(let app, let capabilities) = hello.role {
            if let refusal = claim(app, by: peer, &state) { return .failure(refusal) }
            do throws(SessionError) { try state.engine.register(app, capabilities: capabilities, state: start) } catch {
                return .failure(error)
            }
        }
        let trust = state.rules.trust
        let id = state.nextConnection
        state.nextConnection += 1
        state.connections[id] = Connection(role: hello.role, peer: peer, sink: sink, trust: trust)
        if case .app(let app, _) = hello.role {
            state.connectionByApp[app] = AppLink(id: id, sink: sink, uid: peer.uid)
            if let player = hello.player {
                state.players[app] = player
                state.backend?.playersChanged()
            } else if peer.pid > 1, peer.pid != getpid() {
                // PL1: a player's process that connects as an app of its own after the bridge
                // claimed it (MPRIS published before its session connected: an iOS app's
                // MPRemoteCommandCenter set up first) is that app, governed once: the bridge's app
                // for it is let go, its connection closed (the bridge's claim is refused from now on).
                for (player, claim) in state.players where claim.processID == peer.pid && player != app {
                    letGoOfPlayer(player, for: app, &state)
                }
                // SO1: streams its process already plays are its own from now on.
                state.backend?.playersChanged()
            }
        }
        logger.debug("connected", metadata: ["connection": "#\(id)", "role": "\(hello.role)", "peer": "\(peer)"])
        return .success(ConnectionID(rawValue: id))
    }

    /// T2: an app id belongs to the uid that first registered it (for the daemon's lifetime, and
    /// in the store when it holds a record permission); another uid's claim is refused without
    /// naming the holder. A second connection for a connected id is refused too.
    func claim(_ app: AppID, by peer: PeerCredentials, _ state: inout State) -> SessionError? {
        let holder = state.owners[app] ?? state.registrants[app.hashValue]
        if let holder, holder != peer.uid {
            logger.warning(
                "refused an app id that belongs to another uid",
                metadata: ["app": "\(app)", "peer": "\(peer)", "holder": "\(holder)"])
            return SessionError(.badParam, "app \(app) belongs to another user; choose another app id")
        }
        if let existing = state.connectionByApp[app], let other = state.connections[existing.id] {
            logger.warning(
                "refused a second connection for app \(app)", metadata: ["peer": "\(peer)", "connected": "\(other.peer)"])
            return SessionError(.badParam, "app \(app) is already connected (pid \(other.peer.pid))")
        }
        if holder == nil { state.registrants[app.hashValue] = peer.uid }
        return nil
    }

    /// Replaces the trust policy and the permission policy (SIGHUP). Every connection is judged
    /// again for what it may do from now on; none is dropped. Apps keep the capabilities they
    /// were welcomed with until they reconnect.
    public func reload(_ rules: Rules) {
        state.withLock { state in
            state.rules = rules
            for id in state.connections.keys { state.connections[id]?.judge(by: rules.trust) }
            // PL8: the players present follow the new choice.
            for app in state.players.keys { state.engine.setPausesOnDeviceLoss(app, rules.policy.playersPauseOnDeviceLoss) }
            if state.engine.otherAudioTreatment != rules.policy.otherAudio {
                // OA5: the streams playing now get the new choice at once.
                deliver(state.engine.setOtherAudioTreatment(rules.policy.otherAudio), &state)
            }
        }
    }

    /// The rules in force.
    public var rules: Rules { state.withLock { $0.rules } }

    /// The connection is gone. An app's session is deactivated as if it had called
    /// `setActive(false, .notifyOthersOnDeactivation)` (`Step.departure`): nobody stays ducked,
    /// silenced or interrupted because of a dead app.
    public func disconnect(_ connection: ConnectionID) {
        state.withLock { state in
            guard let gone = state.connections.removeValue(forKey: connection.rawValue) else { return }
            state.subscribers.removeAll { $0 == connection.rawValue }
            guard let app = gone.app else { return }
            state.connectionByApp[app] = nil
            if holdIfInterruptedPlayer(app, peer: gone.peer, &state) { return }  // PL9
            depart(app, &state)
            logger.debug("app departed", metadata: ["app": "\(app)", "peer": "\(gone.peer)"])
        }
    }

    /// PL1: a player's app whose process connected as `app`: it departs and the bridge's connection
    /// for it is closed.
    func letGoOfPlayer(_ player: AppID, for app: AppID, _ state: inout State) {
        let link = state.connectionByApp[player]
        logger.info(
            "PL1: a player's process connected as an app of its own; the bridge's app for it is let go",
            metadata: ["player": "\(player)", "app": "\(app)"])
        depart(player, &state)
        if let link, let connection = state.connections.removeValue(forKey: link.id) {
            state.subscribers.removeAll { $0 == link.id }
            connection.sink.close()
        }
    }

    /// An app without a connection departs (`Step.departure`).
    func depart(_ app: AppID, _ state: inout State) {
        state.connectionByApp[app] = nil
        state.hosted[app] = nil
        state.playerOrigins[app] = nil
        // PL1, SO1: the streams of its process change hands (other audio again).
        let hadStreams = state.processStreams.removeValue(forKey: app) != nil
        if state.players.removeValue(forKey: app) != nil || hadStreams { state.backend?.playersChanged() }
        deliver(state.engine.apply(.departure(app)).effects, &state)
    }
}
