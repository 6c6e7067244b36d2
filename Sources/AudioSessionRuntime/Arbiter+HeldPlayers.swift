import AudioSessionModel
import AudioSessionWire
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// PL9 (revision 5), *the bridge forgets nothing*: a player's app whose connection closes while
/// its session is interrupted because the players bridge itself went away — it crashed, was
/// upgraded or stopped during a call: its process is gone — is not departed at once. (A bridge
/// that closes one player's app on purpose — the player left, or is faulty, PL6 — lives on: that
/// app departs, `bridgeCheck` later: the connection's end may reach us a moment before its
/// process is seen to end.) Its session is *held* for `heldPlayerGrace`, still
/// interrupted, its streams still its own (muted as the interruption wants); what the daemon
/// tells it meanwhile (the interruption's end) is kept. A bridge that connects again for the
/// same player — same app id, uid and process — takes the session back with what was kept, so
/// the interruption's end reaches it and it resumes the player exactly as if it had stayed. Not
/// taken back in time, the app departs as any disconnected app does.
extension Arbiter {
    /// How long an interrupted player's session waits for its bridge.
    public static let heldPlayerGrace: Duration = .seconds(10)

    struct HeldPlayer: Sendable {
        var player: PlayerClaim
        var uid: UInt32
        /// The notifications sent to it while held, in order.
        var pending: [SessionNotification] = []
        /// Which hold this is (a later one of the same app is another).
        var token: UInt64
    }

    /// On disconnect: whether the app is held rather than departed.
    func holdIfInterruptedPlayer(_ app: AppID, peer: PeerCredentials, _ state: inout State) -> Bool {
        guard let player = state.players[app], state.engine.status(of: app)?.isInterrupted == true else { return false }
        let uid = peer.uid
        state.nextConnection += 1
        let token = state.nextConnection
        state.heldPlayers[app] = HeldPlayer(player: player, uid: uid, token: token)
        logger.info(
            "a player's app disconnected during an interruption: its session held for its bridge (PL9)",
            metadata: ["app": "\(app)", "seconds": "\(Self.heldPlayerGrace.components.seconds)"])
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.heldPlayerGrace.dispatchInterval) { [weak self] in
            self?.releaseHeldPlayer(app, token: token, because: "its bridge did not come back")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.bridgeCheck) { [weak self] in
            guard !Self.processIsGone(peer.pid) else { return }
            self?.releaseHeldPlayer(app, token: token, because: "its bridge, still running, closed it")
        }
        return true
    }

    /// How soon after the connection's end its process must be seen gone for the session to stay held.
    static let bridgeCheck = DispatchTimeInterval.milliseconds(200)

    /// A held player nobody will take back departs.
    private func releaseHeldPlayer(_ app: AppID, token: UInt64, because reason: String) {
        state.withLock { state in
            guard state.heldPlayers[app]?.token == token else { return }
            state.heldPlayers[app] = nil
            logger.info("a held player's app departs (PL9): \(reason)", metadata: ["app": "\(app)"])
            depart(app, &state)
        }
    }

    /// A hello for a held player by its own uid and process: the connection takes the session
    /// back, and hears what was kept for it. Nil when the hello is for no held player.
    func takeBack(
        _ hello: Hello, peer: PeerCredentials, sink: any ConnectionSink, _ state: inout State
    ) -> Result<ConnectionID, SessionError>? {
        guard case .app(let app, _) = hello.role, let player = hello.player, let held = state.heldPlayers[app],
            held.uid == peer.uid, held.player.processID == player.processID
        else { return nil }
        state.heldPlayers[app] = nil
        let id = state.nextConnection
        state.nextConnection += 1
        state.connections[id] = Connection(role: hello.role, peer: peer, sink: sink, trust: state.rules.trust)
        state.connectionByApp[app] = AppLink(id: id, sink: sink, uid: peer.uid)
        state.players[app] = player
        logger.info(
            "a held player's bridge came back: its session taken back (PL9)",
            metadata: ["app": "\(app)", "kept": "\(held.pending.count)"])
        for notification in held.pending {
            state.sequence += 1
            sink.send(.event(.notification(sequence: state.sequence, notification)))
        }
        return .success(ConnectionID(rawValue: id))
    }

    /// Whether a process has ended (gone, or a zombie not reaped yet): its connections closed with it.
    static func processIsGone(_ pid: Int32) -> Bool {
        guard pid > 0, let file = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = fread(&buffer, 1, buffer.count, file)
        let line = String(decoding: buffer.prefix(count), as: UTF8.self)
        // "PID (COMM) STATE …": the state follows the last ')'.
        guard let end = line.lastIndex(of: ")") else { return true }
        let state = line[line.index(after: end)...].split(separator: " ").first
        return state == "Z" || state == "X"
    }

    /// A notification for an app with no connection: kept if it is a held player's.
    func keepForHeldPlayer(_ app: AppID, _ notification: SessionNotification, _ state: inout State) {
        guard state.connectionByApp[app] == nil, state.heldPlayers[app] != nil else { return }
        state.heldPlayers[app]!.pending.append(notification)
    }
}
