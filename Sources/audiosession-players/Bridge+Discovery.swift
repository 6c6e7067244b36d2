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

// A player found on the bus (PL1, PL6) and the claims kept across the bridge's restarts (PL9).
extension Bridge {
    /// A player's name appeared: who it is, its process and user, its status (PL1). Each answer
    /// is waited for 1 s at most (PL6).
    func discover(_ name: String) {
        guard let bus else { return }
        var ownerOfName: String?
        var stillNotReady = false
        defer { if !stillNotReady { notReady[name] = nil } }
        do {
            let owner = try bus.callBus("GetNameOwner", [name])
            defer { sd_bus_message_unref(owner) }
            guard let id = owner.readString() else { return }
            ownerOfName = id
            if let known = player(of: id) {
                names[known]?.insert(name)  // its second name: one player is one connection
                return
            }
            let pid = try bus.number("GetConnectionUnixProcessID", of: id)
            let uid = try bus.number("GetConnectionUnixUser", of: id)
            let identity =
                try bus.stringProperty("Identity", of: name, Self.objectPath, interface: "org.mpris.MediaPlayer2") ?? name
            if let known = programs.first(where: { $0.value == (pid, identity) })?.key {
                aliases[id] = known  // the same program on another connection (VLC): the same player
                names[known]?.insert(name)
                return
            }
            var status: PlayerMachine.Status?
            var canPause = true
            var canControl = true
            let all = try bus.call(name, Self.objectPath, "org.freedesktop.DBus.Properties", "GetAll", [Self.playerInterface])
            defer { sd_bus_message_unref(all) }
            _ = all.readDictionary { key, signature in
                switch (key, signature) {
                case ("PlaybackStatus", "s"): status = all.readString().flatMap(PlayerMachine.Status.init(rawValue:))
                case ("CanPause", "b"): canPause = all.readBool() ?? true
                case ("CanControl", "b"): canControl = all.readBool() ?? true
                case ("Metadata", "a{sv}"): if let track = Self.trackID(all) { tracks[id] = track }
                default: break
                }
            }
            guard let status else {
                logger.warning("a player without a valid PlaybackStatus stays other audio", metadata: ["player": "\(name)"])
                return
            }
            names[id] = [name]
            programs[id] = (pid, identity)
            carryOut(
                feed(
                    .appeared(
                        id,
                        .init(
                            busName: name, identity: identity, processID: Int32(pid), uid: uid, status: status,
                            canPause: canPause, canControl: canControl))))
            restoreClaim(of: id, name: name, pid: pid, identity: identity, status: status)
        } catch {
            // PL6 (revision 5): "no such object" in its first seconds is a player not ready yet.
            let now = ContinuousClock.now
            if let owner = ownerOfName, error.isNoSuchObject {
                let since = notReady[name].flatMap { $0.owner == owner ? $0.since : nil } ?? now
                if now - since < Self.readyWithin {
                    if notReady[name] == nil {
                        logger.info("a player is not ready yet; asked again (PL6)", metadata: ["player": "\(name)"])
                    }
                    notReady[name] = (owner, since, now + Self.askAgainEvery)
                    stillNotReady = true
                    return
                }
            }
            logger.warning(
                "a player did not answer; it stays other audio (PL6)", metadata: ["player": "\(name)", "error": "\(error)"])
        }
    }

    /// PL9: a player found again that a previous run had paused for an interruption: the claim
    /// stands if it is still paused where it was, on the same track.
    func restoreClaim(of id: String, name: String, pid: UInt32, identity: String, status: PlayerMachine.Status) {
        guard let index = claimsLeft.firstIndex(where: { $0.processID == pid && $0.identity == identity }) else { return }
        let kept = claimsLeft.remove(at: index)
        let position = readPositionNow(of: name)
        let moved = kept.position.map { kept in position.map { abs($0 - kept) > PlayerMachine.seekTolerance } ?? true } ?? false
        guard status != .playing, kept.track == tracks[id], !moved else {
            logger.info(
                "a kept claim to resume a player is dropped: the user played, seeked or changed its track meanwhile (PL9)",
                metadata: ["player": "\(name)"])
            return saveClaims()
        }
        logger.info(
            "a kept claim to resume a player stands: it resumes at the interruption's end (PL9)", metadata: ["player": "\(name)"])
        carryOut(feed(.claimRestored(id, position: kept.position)))
    }

    /// PL9: the claims as they stand now (the machine's, and those kept by a previous run not yet
    /// matched), written when they changed.
    func saveClaims() {
        var claims = claimsLeft
        for (id, position) in machine.claims {
            guard let program = programs[id] else { continue }
            claims.append(KeptClaim(processID: program.pid, identity: program.identity, track: tracks[id], position: position))
        }
        claims.sort { ($0.processID, $0.identity) < ($1.processID, $1.identity) }
        guard claims != claimsWritten else { return }
        do {
            try keptClaims.save(claims)
            claimsWritten = claims
        } catch {
            logger.warning("cannot keep the claims to resume players (PL9)", metadata: ["error": "\(error)"])
        }
    }
}
