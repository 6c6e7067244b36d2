import AudioSessionModel

// The machine's steps for one player (SPEC §16): it appears, its status changes, its session is
// told something; activating, pausing, and whose claim to resume a later player took over (PL2–PL5).
extension PlayerMachine {
    /// PL5: whether a `Seeked` to `position` at `now` is where the player already was — within
    /// `seekTolerance` of its last known position, moved on by the time elapsed while it played
    /// (at rate 1; a player paused since stays where it was). Without a known position it is a seek.
    static func isAnnouncement(_ position: Int64, at now: UInt64, of player: Player) -> Bool {
        guard let anchor = player.anchor else { return false }
        let elapsed = anchor.playing && now > anchor.at ? Int64((now - anchor.at) / 1000) : 0
        let expected = anchor.position + elapsed
        return abs(position - expected) <= seekTolerance
    }

    mutating func appeared(_ id: PlayerID, _ description: Description) -> [Command] {
        guard players[id] == nil, !ignored.contains(id) else { return [] }
        let sameUser = players.values.filter { $0.uid == description.uid }.count
        guard sameUser < Self.playersPerUID else {
            ignored.insert(id)
            return [.log(id, "more than \(Self.playersPerUID) players of uid \(description.uid); this one stays other audio")]
        }
        var player = Player(
            app: Self.appID(forBusName: description.busName), uid: description.uid, status: description.status,
            canPause: description.canPause, canControl: description.canControl)
        var commands: [Command] = [
            .register(
                id, app: player.app, identity: description.identity, processID: description.processID,
                busName: Self.lastPart(ofBusName: description.busName))
        ]
        if description.status == .playing {
            commands.append(activate(id, &player))
        }
        players[id] = player
        return commands
    }

    mutating func statusChanged(_ id: PlayerID, _ player: inout Player, to status: Status) -> [Command] {
        guard status != player.status else { return [] }
        player.status = status
        // PL5: the position goes on from where it was when it played, and stays while it does not.
        if let anchor = player.anchor { player.anchor = (anchor.position, anchor.at, status == .playing) }
        switch status {
        case .playing:
            if player.awaitsOwnPlay {
                player.awaitsOwnPlay = false
            } else {
                // PL5: the user played it: an activation (I5: no later `ended` for it).
                player.pausedByInterruption = false
                player.awaitsPosition = false
            }
            player.awaitsOwnPause = false
            guard !player.active else { return [] }
            return [activate(id, &player)]
        case .paused, .stopped:
            if player.awaitsOwnPause {
                player.awaitsOwnPause = false  // our own Pause (PL3): the session is interrupted already
                if !player.active { return [] }
            } else {
                // Paused or stopped by the user or by the player itself: PL4's claim ends.
                player.awaitsOwnPlay = false
                player.pausedByInterruption = false
                player.awaitsPosition = false
            }
            guard player.active else { return [] }
            player.active = false
            return [.deactivate(id)]
        }
    }

    mutating func notified(_ id: PlayerID, _ player: inout Player, _ notification: SessionNotification) -> [Command] {
        switch notification {
        case .interruptionBegan:
            // PL3: the session was interrupted (its output stopped: the daemon mutes its streams
            // until the end, whatever the player answers). Remembered only if it was Playing.
            player.active = false
            guard player.status == .playing else { return [] }
            player.pausedByInterruption = true
            return pause(id, &player)
        case .interruptionEnded(let shouldResume):
            // PL4: Play only if still paused by that interruption (its Pause may not have been
            // answered yet: the player takes the two in order) and no other player took over since.
            let resumes = shouldResume && player.pausedByInterruption && !takenOver(id, player)
            player.pausedByInterruption = false
            player.refusals = 0
            guard resumes, player.canControl else { return [] }
            // PL5 (revision 6): its Position first; Play once it says nobody seeked.
            player.awaitsPosition = true
            return [.readPositionBeforePlay(id)]
        case .mediaServicesLost, .mediaServicesReset:
            // MS1, MS2: the session is back to its defaults; a player still playing activates again.
            player.active = false
            player.pausedByInterruption = false
            guard notification == .mediaServicesReset, player.status == .playing else { return [] }
            return [activate(id, &player)]
        default:
            return []
        }
    }

    /// PL2: the session activates (the start counted for PL4).
    mutating func activate(_ id: PlayerID, _ player: inout Player) -> Command {
        player.active = true
        starts += 1
        player.startedBefore = player.startedAt
        player.startedAt = starts
        return .activate(id)
    }

    /// PL4 (our reading, with I2): a non-mixable player that another non-mixable player's start
    /// interrupted was paused *for that player*; if a call then interrupts that one, I2 hands the
    /// first on to the call and its end says shouldResume to both — and both playing again, the
    /// one that happened to activate last would win. The user chose the later player, and iOS
    /// would never resume an app for another app's deactivation without notifyOthers (PL2), so
    /// the first's claim to resume ends when a non-mixable player started after it.
    func takenOver(_ id: PlayerID, _ player: Player) -> Bool {
        guard !player.mixesWithOthers else { return false }
        return players.contains { other, later in
            other != id && !later.mixesWithOthers && later.startedAt > player.startedAt
        }
    }

    /// `Pause`, or `Stop` when the player cannot pause but can be controlled (PL3).
    func pause(_ id: PlayerID, _ player: inout Player) -> [Command] {
        guard player.status == .playing else { return [] }
        if player.canPause {
            player.awaitsOwnPause = true
            return [.mpris(id, .pause)]
        }
        guard player.canControl else { return [.log(id, "cannot be paused or stopped (CanPause and CanControl false)")] }
        player.awaitsOwnPause = true
        return [.mpris(id, .stop)]
    }
}
