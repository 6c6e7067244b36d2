import AudioSessionEngine
import AudioSessionModel
import AudioSessionWire

extension Arbiter {
    /// Who may do what: an app only its own session; system events and permission answers
    /// only a controller running as root or as the daemon's user (`ent?` otherwise, logged).
    func handle(_ request: Request, _ client: Connection, _ id: UInt64, _ state: inout State) -> Reply {
        switch (request, client.role) {
        case (.ping, _):
            return .done
        case (.call(.setAppState), .app(let app, _)) where state.rules.trust.mode == .system:
            // T1: in the system trust mode the device's shell, not the app, says where it is.
            logger.warning(
                "refused an app's own app state (system trust mode)", metadata: ["app": "\(app)", "peer": "\(client.peer)"])
            return .failed(
                SessionError(
                    .missingEntitlement,
                    "in the system trust mode an app's foreground/background state is set by the device's shell (a controller), not by the app"
                ))
        case (.call(let call), .app(let app, _)):
            // There is no session id in the protocol: a connection addresses its own app only.
            return perform(.app(app, call), &state)
        case (.status, .app(let app, _)):
            guard let status = state.engine.status(of: app) else {
                return .failed(SessionError(.badParam, "app \(app) is not registered"))
            }
            return .status(status)
        case (.call, _), (.status, _):
            return .failed(SessionError(.badParam, "a \(client.role.name) connection has no session of its own"))
        case (.deviceStatus, .controller), (.deviceStatus, .monitor):
            return .device(snapshot(state, for: client))
        case (.subscribe, .controller), (.subscribe, .monitor):
            if !state.subscribers.contains(id) { state.subscribers.append(id) }
            return .done
        case (.system(let event), .controller) where client.isSystemController:
            return perform(.system(event), &state)
        case (.answerPermission(let app, let granted), .controller) where client.isSystemController:
            let reply = perform(.recordPermissionAnswer(app, granted: granted), &state)
            if case .done = reply { controllerAnswered(app, &state) }  // P4: the agent's question taken back
            return reply
        case (.reset(let profile, let duckLevel), .controller) where client.isSystemController:
            return reset(profile, duckLevel, &state)
        case (.setAppState(let app, let appState), .controller) where client.isSystemController:
            guard state.connectionByApp[app] != nil else {
                return .failed(SessionError(.badParam, "app \(app) is not connected"))
            }
            return perform(.app(app, .setAppState(appState)), &state)
        case (.system, _), (.answerPermission, _), (.reset, _), (.deviceStatus, _), (.subscribe, _), (.setAppState, _):
            logger.warning(
                "refused a request that needs a system controller",
                metadata: ["request": "\(request.name)", "role": "\(client.role.name)", "peer": "\(client.peer)"])
            return .failed(
                SessionError(
                    .missingEntitlement,
                    "\(request.name) needs a system controller connection (\(state.rules.trust.controllerRule)); this is a \(client.role.name) connection from uid \(client.peer.uid)"
                ))
        }
    }

    /// Applies a step, delivers its effects and persists what changed.
    func perform(_ step: Step, _ state: inout State) -> Reply {
        let outcome = state.engine.apply(step)
        if state.engine.mediaServicesLost != (state.mediaServicesLostSince != nil) {
            state.mediaServicesLostSince = state.engine.mediaServicesLost ? configuration.now() : nil  // MS3, for status
        }
        deliver(outcome.effects, &state)
        persistIfChanged(after: step, &state)
        if let error = outcome.error { return .failed(error) }
        // POL2, CL3: hosted sessions refused during a system session try again at its end,
        // whoever ended it (a stream of the server, or a controller's `system` event).
        if case .system(.systemSession(_, begin: false)) = step { restartWaitingHostedSessions(state) }
        return .done
    }

    /// A fresh device for a scenario run; refused while apps are connected, and refused by a
    /// daemon whose state is real — settings kept in a state directory (record permissions real
    /// users gave) or a device read from a sound server — so a scenario run can never lose them.
    private func reset(_ profile: DeviceProfile, _ duckLevel: Double, _ state: inout State) -> Reply {
        if let store = configuration.store {
            return .failed(
                SessionError(
                    .badParam,
                    "reset would replace settings kept in \(store.directory); run scenarios on a daemon without --state-dir (audiosession run --daemon starts one)"
                ))
        }
        if let backend = state.backend, !backend.isSimulated {
            return .failed(
                SessionError(
                    .badParam,
                    "reset would throw away the device read from the sound server; run scenarios on a simulated daemon (audiosession run --daemon starts one)"
                ))
        }
        let apps = state.connectionByApp.keys.sorted()
        guard apps.isEmpty else {
            return .failed(
                SessionError(
                    .badParam, "reset needs no app connected; connected: \(apps.map(\.rawValue).joined(separator: ", "))"))
        }
        guard duckLevel >= 0, duckLevel <= 1 else {
            return .failed(SessionError(.badParam, "D1: the duck level must be within 0…1, not \(duckLevel)"))
        }
        state.engine = Engine(profile: profile, duckLevel: duckLevel)
        persistIfChanged(after: nil, &state)
        logger.info("device reset", metadata: ["profile": "\(profile)", "duck-level": "\(duckLevel)"])
        return .done
    }

    /// The device and every connected app, apps by id. A reader that does not see every app (a
    /// monitor of an ordinary user) reads only its own uid's apps, and of the device what T4
    /// calls device-wide (`DeviceStatus.seen(by:ownerOf:)`); broken invariants, which name apps,
    /// are only counted for it.
    func snapshot(_ state: State, for reader: Connection) -> DeviceSnapshot {
        var apps: [AppSnapshot] = []
        for (app, link) in state.connectionByApp {
            guard let connection = state.connections[link.id], let status = state.engine.status(of: app) else { continue }
            guard reader.sees(connection.peer.uid) else { continue }
            // PL7: a player's app shows the player's process, not the bridge's that connected it.
            let player = state.players[app]
            let hosted = state.hosted[app]
            var kind = AppKind.client
            var name = player?.identity
            if player != nil {
                kind = .player
            } else if let hosted {
                kind = .stream
                if case .call(let program) = hosted.kind {
                    kind = .call  // CL7: a call with its program's name, pid and streams
                    name = program
                }
            }
            apps.append(
                AppSnapshot(
                    app: app, pid: player?.processID ?? hosted?.processID ?? connection.peer.pid, uid: connection.peer.uid,
                    status: status, player: name, kind: kind, policy: state.playerOrigins[app] ?? hosted?.origin,
                    streams: hosted?.streams ?? state.processStreams[app] ?? []))
        }
        // PL7, PL9: a player's app held for its bridge is still there (its session interrupted).
        for (app, held) in state.heldPlayers where reader.sees(held.uid) {
            guard let status = state.engine.status(of: app) else { continue }
            apps.append(
                AppSnapshot(
                    app: app, pid: held.player.processID, uid: held.uid, status: status, player: held.player.identity,
                    kind: .player, policy: state.playerOrigins[app]))
        }
        apps.sort { $0.app < $1.app }
        var device = state.engine.deviceStatus
        for index in device.otherAudio.indices where device.otherAudio[index].gain < 1 {
            // POL3: the duck a stream of a role with a level of its own is given (as carried out).
            let role = device.otherAudio[index].audio.role
            if let level = state.rules.policy.duckLevel(forRole: role) { device.otherAudio[index].gain = level }
        }
        var violations = state.engine.invariantViolations
        if !reader.seesEveryApp {
            device = device.seen(by: reader.sees, ownerOf: state.uid(of:))
            if !violations.isEmpty {
                violations = ["\(violations.count) broken (listed to root, the daemon's user and system monitors)"]
            }
        }
        let permissions = PermissionAnswering(
            fallback: state.rules.permissionFallback,
            timeoutMs: configuration.permissionAgent == nil ? 0 : UInt32(clamping: state.rules.permissionTimeout.milliseconds),
            asking: state.agentAsks.filter { reader.seesEveryApp || reader.sees(state.uid(of: $0)) }.map(\.rawValue).sorted())
        return DeviceSnapshot(
            device: device, apps: apps, violations: violations, mediaServicesLostSince: state.mediaServicesLostSince,
            permissions: permissions
        ).fittingOneFrame()  // no reply exceeds a frame, however many apps
    }

    /// P1, HW7: writes the settings when a step changed them (`nil`: always compare). An answered
    /// permission binds the app id to the uid connected as it.
    func persistIfChanged(after step: Step?, _ state: inout State) {
        switch step {
        case .recordPermissionAnswer(let app, _):
            if state.owners[app] == nil, let uid = state.uid(of: app) {
                state.owners[app] = uid
            }
        case .system(.outputVolume), nil: break
        default: return
        }
        let settings = state.engine.settings
        guard settings != state.savedSettings || state.owners != state.savedOwners, let store = configuration.store else {
            return
        }
        // Written on the store's own queue: no fsync under the arbiter's lock.
        let logger = logger
        store.saveInBackground(settings, owners: state.owners) { error in
            logger.error("cannot save the settings", metadata: ["error": "\(error)"])
        }
        state.savedSettings = settings
        state.savedOwners = state.owners
    }
}

extension ClientRole {
    var name: String {
        switch self {
        case .app: "app"
        case .controller: "controller"
        case .monitor: "monitor"
        }
    }
}

extension Request {
    /// The request's name in logs and errors.
    var name: String {
        switch self {
        case .call: "call"
        case .status: "status"
        case .ping: "ping"
        case .system(let event): "system event \(event)"
        case .answerPermission: "permission answer"
        case .deviceStatus: "device status"
        case .subscribe: "subscribe"
        case .reset: "reset"
        case .setAppState: "app state"
        }
    }
}
