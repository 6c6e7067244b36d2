import AudioSessionClient
import AudioSessionModel
import AudioSessionPlayers
import AudioSessionWire
import CSystemd
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// What the machine says, carried out: session calls through the client library, MPRIS methods
// on the bus (SPEC §16).
extension Bridge {
    // MARK: What the machine says

    /// One input to the machine (logged at debug); its commands.
    func feed(_ input: PlayerMachine.Input) -> [PlayerMachine.Command] {
        let commands = machine.handle(input)
        logger.debug("\(input) → \(commands)")
        saveClaims()
        return commands
    }

    /// The intent the daemon gave a player's app (PL1, POL1), as the machine needs it (PL4).
    func intent(of id: PlayerMachine.PlayerID) -> PlayerMachine.Input {
        let options = (try? sessions[id]?.status().categoryOptions) ?? []
        return .intent(id, mixesWithOthers: options.contains(.mixWithOthers))
    }

    func carryOut(_ commands: [PlayerMachine.Command]) {
        var queue = commands[...]
        while let command = queue.popFirst() {
            queue.append(contentsOf: carryOut(command))
        }
    }

    /// One command; what the machine says to an answer that comes at once (a refusal).
    func carryOut(_ command: PlayerMachine.Command) -> [PlayerMachine.Command] {
        switch command {
        case .register(let id, let app, let identity, let pid, let busName):
            let session = AudioSession(
                appID: app, capabilities: [.backgroundAudio, .nowPlaying], transport: transport,
                player: PlayerClaim(processID: pid, identity: identity, busName: busName), poster: nil)
            session.reappliesConfigurationAfterReset = false  // the daemon gives it its intent again
            session.addNotificationHandler { [weak self] notification in self?.post(.notification(id, notification)) }
            do {
                // PL1, POL1: the daemon sets the player's category from its policy (playback by
                // default, non-mixable) or refuses a player the policy ignores.
                let connected = try session.connectOrWaitForDaemon()
                sessions[id] = session
                logger.info("player", metadata: ["player": "\(identity)", "app": "\(app)", "pid": "\(pid)"])
                // MS1 at start (the bridge before the daemon): governed once the daemon answers (MS2).
                guard connected else {
                    logger.info("no daemon yet: the player waits for it", metadata: ["app": "\(app)"])
                    return []
                }
                return feed(intent(of: id))
            } catch {
                session.close()
                logger.warning(
                    "the daemon refused a player; it stays other audio", metadata: ["app": "\(app)", "error": "\(error)"])
                return feed(.fault(id, "refused by the daemon: \(error)"))
            }
        case .activate(let id):
            guard let session = sessions[id] else { return [] }
            do {
                try session.setActive(true)
            } catch {
                // No daemon (MS1): nothing refused it; the reset (MS2) activates it if it still plays.
                guard error.code != .mediaServicesFailed else { return [] }
                logger.info("a player's playing was refused", metadata: ["app": "\(session.appID)", "error": "\(error)"])
                return feed(.activationRefused(id))
            }
            do {
                try session.reportOutputRunning(true)
            } catch {
                // Active a moment ago: only an interruption since (a call begun between the two
                // steps) refuses its output now, and that interruption's notification follows —
                // PL3 pauses the player then and PL4 plays it again after. Taken for a refusal
                // (PL2), it would stay paused after the call.
                logger.debug(
                    "its output refused right after its activation: interrupted meanwhile",
                    metadata: ["app": "\(session.appID)", "error": "\(error)"])
            }
            return []
        case .deactivate(let id):
            guard let session = sessions[id] else { return [] }
            try? session.reportOutputRunning(false)
            try? session.setActive(false)
            return []
        case .depart(let id):
            sessions.removeValue(forKey: id)?.close()
            return []
        case .mpris(let id, let method):
            guard let bus, let name = names[id]?.sorted().first else { return [] }
            if method != .play, let since = interrupted.withLock({ $0.removeValue(forKey: id) }) {
                let elapsed = ContinuousClock.now - since
                let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
                logger.debug(
                    "MPRIS \(method.rawValue) sent \(micros) µs after the interruption or device loss",
                    metadata: ["player": "\(name)"])
            } else {
                logger.debug("MPRIS \(method.rawValue)", metadata: ["player": "\(name)"])
            }
            if method != .play { readPosition(id, of: name) }
            bus.callLater(name, Self.objectPath, Self.playerInterface, method.rawValue) { [weak self] error in
                guard let self, let error else { return }
                self.carryOut(self.feed(.fault(id, "\(method.rawValue) failed: \(error)")))
            }
            return []
        case .readPositionBeforePlay(let id):
            guard let name = names[id]?.sorted().first else { return [] }
            readPositionBeforePlay(id, of: name)
            return []
        case .log(let id, let text):
            logger.warning("\(text)", metadata: ["player": "\(names[id]?.sorted().first ?? id)"])
            return []
        }
    }

}

extension OpaquePointer {
    /// The unique name of a signal's sender.
    func readSenderID() -> String? { sd_bus_message_get_sender(self).map { String(cString: $0) } }
}
