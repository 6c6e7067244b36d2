import AudioSessionModel
import AudioSessionPlayers
import Testing

/// SPEC §16 as the players bridge decides it, without a bus.
@Suite("Players of other apps: the bridge's decisions (PL1–PL6)")
struct PlayerMachineTests {
    static let mpv = "mpv-conn"
    static func mpvPlayer(_ status: PlayerMachine.Status = .playing, canPause: Bool = true) -> PlayerMachine.Description {
        .init(
            busName: "org.mpris.MediaPlayer2.mpv", identity: "mpv Media Player", processID: 4242, uid: 1000, status: status,
            canPause: canPause)
    }

    /// PL4 with PL5 (revision 6): an interruption's end with shouldResume, each player's Position
    /// read before Play answered as `position` (nil: it has none) at `now` — the commands that follow.
    static func end(
        _ machine: inout PlayerMachine, _ id: PlayerMachine.PlayerID, position: Int64? = nil, at now: UInt64 = 0
    ) -> [PlayerMachine.Command] {
        var commands: [PlayerMachine.Command] = []
        for command in machine.handle(.notification(id, .interruptionEnded(shouldResume: true))) {
            if case .readPositionBeforePlay(let asked) = command {
                commands += machine.handle(.positionBeforePlay(asked, position, at: now))
            } else {
                commands.append(command)
            }
        }
        return commands
    }

    @Test("PL1: a player's app id is mpris. + its bus name's last part, reduced to T3's characters")
    func appIDs() {
        #expect(PlayerMachine.appID(forBusName: "org.mpris.MediaPlayer2.vlc.instance42") == "mpris.vlc.instance42")
        #expect(PlayerMachine.appID(forBusName: "org.mpris.MediaPlayer2.chromium.instance1234") == "mpris.chromium.instance1234")
        #expect(PlayerMachine.appID(forBusName: "org.mpris.MediaPlayer2.Spotify") == "mpris.Spotify")
        #expect(PlayerMachine.appID(forBusName: "org.mpris.MediaPlayer2.odd name+1") == "mpris.odd_name_1")
        #expect(PlayerMachine.appID(forBusName: "org.mpris.MediaPlayer2.").rawValue.count > 6)
        // POL1's bus-name: matches the last part as the bus says it, before T3's reduction.
        #expect(PlayerMachine.lastPart(ofBusName: "org.mpris.MediaPlayer2.odd name+1") == "odd name+1")
    }

    @Test("PL1, PL2: a playing player registers and activates; paused by the user it deactivates; gone, it departs")
    func playPauseGone() {
        var machine = PlayerMachine()
        #expect(
            machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
                == [
                    .register(Self.mpv, app: "mpris.mpv", identity: "mpv Media Player", processID: 4242, busName: "mpv"),
                    .activate(Self.mpv),
                ])
        #expect(machine.handle(.status(Self.mpv, .paused)) == [.deactivate(Self.mpv)])
        #expect(machine.handle(.status(Self.mpv, .playing)) == [.activate(Self.mpv)])
        #expect(machine.handle(.status(Self.mpv, .stopped)) == [.deactivate(Self.mpv)])
        #expect(machine.handle(.vanished(Self.mpv)) == [.depart(Self.mpv)])
        #expect(machine.handle(.status(Self.mpv, .playing)).isEmpty, "a departed player is forgotten")
    }

    @Test("PL3 (revision 5): abilities are followed as they change: CanPause true after its first track, a call pauses it")
    func abilitiesFollowed() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer(.stopped, canPause: false)))
        #expect(machine.handle(.abilities(Self.mpv, canPause: true, canControl: nil)).isEmpty)
        _ = machine.handle(.status(Self.mpv, .playing))
        #expect(
            machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .pause)],
            "paused, not stopped: its position kept")
        var changing = PlayerMachine()
        _ = changing.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = changing.handle(.abilities(Self.mpv, canPause: false, canControl: nil))
        #expect(changing.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .stop)])
        #expect(changing.handle(.abilities("nobody", canPause: true, canControl: true)).isEmpty, "an unknown player: nothing")
    }

    @Test("PL8: headphones out pause a playing player, never one the user paused; nothing resumes it")
    func deviceLost() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        #expect(machine.handle(.deviceLost(Self.mpv)) == [.mpris(Self.mpv, .pause)])
        #expect(machine.handle(.status(Self.mpv, .paused)) == [.deactivate(Self.mpv)], "our Pause's echo: deactivated")
        #expect(Self.end(&machine, Self.mpv).isEmpty, "no claim")
        var paused = PlayerMachine()
        _ = paused.handle(.appeared(Self.mpv, Self.mpvPlayer(.paused)))
        #expect(paused.handle(.deviceLost(Self.mpv)).isEmpty, "paused by the user: left so")
    }

    @Test("PL9: a claim kept across the bridge's restart resumes the player; the user playing, or the daemon's reset, ends it")
    func claimsKept() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer(.paused)))
        _ = machine.handle(.claimRestored(Self.mpv, position: 42_000_000))
        #expect(machine.claims[Self.mpv] == .some(42_000_000), "kept again, with where it was")
        #expect(Self.end(&machine, Self.mpv) == [.mpris(Self.mpv, .play)])
        var reset = PlayerMachine()
        _ = reset.handle(.appeared(Self.mpv, Self.mpvPlayer(.paused)))
        _ = reset.handle(.claimRestored(Self.mpv, position: nil))
        _ = reset.handle(.notification(Self.mpv, .mediaServicesReset))
        #expect(reset.claims.isEmpty, "MS2: the reset ended it")
        #expect(reset.handle(.notification(Self.mpv, .interruptionEnded(shouldResume: true))).isEmpty)
        var played = PlayerMachine()
        _ = played.handle(.appeared(Self.mpv, Self.mpvPlayer(.playing)))
        _ = played.handle(.claimRestored(Self.mpv, position: 1))
        #expect(played.claims.isEmpty, "playing when found again: the user played it")
    }

    @Test("PL3, PL4: a call pauses the playing player; its end with shouldResume plays it again")
    func callPausesAndResumes() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        #expect(machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .pause)])
        #expect(machine.handle(.status(Self.mpv, .paused)).isEmpty, "our own pause's echo: nothing to do")
        #expect(Self.end(&machine, Self.mpv) == [.mpris(Self.mpv, .play)])
        #expect(machine.handle(.status(Self.mpv, .playing)) == [.activate(Self.mpv)], "playing again: active again")
    }

    @Test("PL4: a call that ends before the player answered its Pause still resumes it; the echoes change nothing")
    func shortCall() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        #expect(machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .pause)])
        #expect(Self.end(&machine, Self.mpv) == [.mpris(Self.mpv, .play)])
        #expect(machine.handle(.status(Self.mpv, .paused)).isEmpty, "the Pause's late echo")
        #expect(machine.handle(.status(Self.mpv, .playing)) == [.activate(Self.mpv)], "the Play's echo: active again")
    }

    @Test("PL4: a player the user paused before the call never starts after it")
    func userPausedStaysPaused() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = machine.handle(.status(Self.mpv, .paused))
        #expect(machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))).isEmpty)
        #expect(Self.end(&machine, Self.mpv).isEmpty)
    }

    @Test("PL4: without shouldResume it stays paused; a pause, stop, seek or new track during the call ends the claim")
    func claimEnds() {
        for touch: PlayerMachine.Input in [
            .notification(Self.mpv, .interruptionEnded(shouldResume: false)), .newTrack(Self.mpv),
            .seeked(Self.mpv, position: 95_000_000, at: 2_000_000_000), .status(Self.mpv, .stopped),
        ] {
            var machine = PlayerMachine()
            _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
            _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
            _ = machine.handle(.position(Self.mpv, 30_000_000, at: 1_000_000_000))  // read before the Pause
            _ = machine.handle(.status(Self.mpv, .paused))  // the echo
            _ = machine.handle(touch)
            #expect(
                Self.end(&machine, Self.mpv).isEmpty,
                "after \(touch) the player is not resumed")
        }
    }

    @Test(
        "PL5 (revision 6): its Position is read before Play — 30 s from where it paused ends the claim, 0.5 s does not, none known plays; the user playing it meanwhile is no Play of ours"
    )
    func positionBeforePlay() {
        for (answer, resumes): (Int64?, Bool) in [(60_000_000, false), (30_500_000, true), (nil, true)] {
            var machine = PlayerMachine()
            _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
            _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
            _ = machine.handle(.position(Self.mpv, 30_000_000, at: 10_000_000_000))  // read before the Pause
            _ = machine.handle(.status(Self.mpv, .paused))
            let after = Self.end(&machine, Self.mpv, position: answer, at: 70_000_000_000)
            #expect(
                after.contains(.mpris(Self.mpv, .play)) == resumes,
                "Position \(String(describing: answer)) µs a minute later (paused at 30 s): \(after)")
        }
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
        _ = machine.handle(.status(Self.mpv, .paused))
        #expect(
            machine.handle(.notification(Self.mpv, .interruptionEnded(shouldResume: true))) == [.readPositionBeforePlay(Self.mpv)]
        )
        _ = machine.handle(.status(Self.mpv, .playing))  // the user played it first
        #expect(machine.handle(.positionBeforePlay(Self.mpv, 30_000_000, at: 1)).isEmpty, "no Play of ours after the user's")
    }

    @Test("PL5 (revision 5): a Seeked to where the player already is, as browsers send on pause and play, keeps the claim")
    func seekedAnnouncements() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        #expect(machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .pause)])
        // Read just before the Pause, at 10 s on the clock: 30 s into the track.
        _ = machine.handle(.position(Self.mpv, 30_000_000, at: 10_000_000_000))
        // The pause announced 50 ms later, with the position moved on by those 50 ms.
        #expect(machine.handle(.seeked(Self.mpv, position: 30_050_000, at: 10_050_000_000)).isEmpty)
        _ = machine.handle(.status(Self.mpv, .paused))
        // Paused for a minute: where it paused, not a minute on, is where it is.
        _ = machine.handle(.seeked(Self.mpv, position: 30_060_000, at: 70_000_000_000))
        #expect(
            Self.end(&machine, Self.mpv) == [.mpris(Self.mpv, .play)],
            "the announcements kept the claim to resume")

        // Without a known position, or a minute away from it, a Seeked is a seek.
        for (known, seekTo): (Bool, Int64) in [(false, 30_000_000), (true, 90_000_000), (true, 28_000_000)] {
            var machine = PlayerMachine()
            _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
            _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
            if known { _ = machine.handle(.position(Self.mpv, 30_000_000, at: 10_000_000_000)) }
            _ = machine.handle(.status(Self.mpv, .paused))
            _ = machine.handle(.seeked(Self.mpv, position: seekTo, at: 20_000_000_000))
            #expect(
                Self.end(&machine, Self.mpv).isEmpty,
                "a seek to \(seekTo) µs (position known: \(known)) ends the claim")
        }
    }

    @Test("PL5, PL2: the user playing during the call is an activation; refused, it is paused at once and never resumed")
    func playedDuringTheCall() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
        _ = machine.handle(.status(Self.mpv, .paused))
        #expect(machine.handle(.status(Self.mpv, .playing)) == [.activate(Self.mpv)])
        let refused = machine.handle(.activationRefused(Self.mpv))
        #expect(refused.first == .mpris(Self.mpv, .pause))
        _ = machine.handle(.status(Self.mpv, .paused))
        #expect(Self.end(&machine, Self.mpv).isEmpty)
    }

    @Test("PL2, PL6: a player that plays again by itself each time it is paused is left muted after 3 tries, logged twice")
    func playsAgainByItself() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
        _ = machine.handle(.status(Self.mpv, .paused))
        var pauses = 0
        var logs = 0
        for _ in 0..<10 {
            #expect(machine.handle(.status(Self.mpv, .playing)) == [.activate(Self.mpv)])
            for command in machine.handle(.activationRefused(Self.mpv)) {
                if case .mpris(_, .pause) = command { pauses += 1 }
                if case .log = command { logs += 1 }
            }
            _ = machine.handle(.status(Self.mpv, .paused))
        }
        #expect(pauses == PlayerMachine.refusalsBeforeGivingUp - 1 && logs == 2, "pauses \(pauses), logs \(logs)")
        _ = machine.handle(.notification(Self.mpv, .interruptionEnded(shouldResume: false)))
        _ = machine.handle(.status(Self.mpv, .playing))
        #expect(machine.handle(.activationRefused(Self.mpv)).contains(.mpris(Self.mpv, .pause)), "counted afresh after it")
    }

    @Test("PL3: a player that cannot pause is stopped; one that cannot be controlled is only muted (logged)")
    func cannotPause() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer(canPause: false)))
        #expect(machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default))) == [.mpris(Self.mpv, .stop)])
        var stubborn = PlayerMachine()
        var description = Self.mpvPlayer(canPause: false)
        description.canControl = false
        _ = stubborn.handle(.appeared(Self.mpv, description))
        let commands = stubborn.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
        #expect(commands.count == 1 && { if case .log = commands[0] { true } else { false } }())
    }

    @Test("PL6: a fault makes the player other audio, once; the 65th player of a uid is not governed; the bus lost departs all")
    func faultsAndLimits() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        let fault = machine.handle(.fault(Self.mpv, "Pause did not answer within 1 s"))
        #expect(fault.last == .depart(Self.mpv) && !machine.governs(Self.mpv))
        #expect(machine.handle(.status(Self.mpv, .paused)).isEmpty && machine.handle(.fault(Self.mpv, "again")).isEmpty)
        #expect(machine.handle(.appeared(Self.mpv, Self.mpvPlayer())).isEmpty, "given up until it leaves")

        var crowded = PlayerMachine()
        for index in 0..<PlayerMachine.playersPerUID {
            var description = Self.mpvPlayer(.paused)
            description.busName += ".instance\(index)"
            _ = crowded.handle(.appeared("c\(index)", description))
        }
        var extra = Self.mpvPlayer()
        extra.busName += ".instance999"
        let refused = crowded.handle(.appeared("extra", extra))
        #expect(!crowded.governs("extra") && refused.count == 1)
        var other = extra
        other.uid = 1001
        #expect(crowded.handle(.appeared("other-user", other)).count == 2, "another uid has its own 64")
        #expect(crowded.handle(.busLost).count == PlayerMachine.playersPerUID + 1)
    }

    @Test("MS2: after a media-services reset a player still playing activates again")
    func mediaServicesReset() {
        var machine = PlayerMachine()
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        #expect(machine.handle(.notification(Self.mpv, .mediaServicesLost)).isEmpty)
        #expect(machine.handle(.notification(Self.mpv, .mediaServicesReset)) == [.activate(Self.mpv)])
    }

    /// Two players: mpv plays, then VLC starts (interrupting mpv, which is paused), then a call
    /// interrupts VLC (I2 hands mpv on to the call); the call ends with shouldResume for both.
    static func twoPlayersAndACall(mixing: Bool, endsInOrder order: [PlayerMachine.PlayerID]) -> [PlayerMachine.Command] {
        var machine = PlayerMachine()
        let vlc = "vlc-conn"
        var vlcPlayer = mpvPlayer(.paused)
        vlcPlayer.busName = "org.mpris.MediaPlayer2.vlc"
        _ = machine.handle(.appeared(mpv, mpvPlayer()))
        _ = machine.handle(.intent(mpv, mixesWithOthers: mixing))
        _ = machine.handle(.appeared(vlc, vlcPlayer))
        _ = machine.handle(.intent(vlc, mixesWithOthers: mixing))
        _ = machine.handle(.status(vlc, .playing))
        if !mixing {  // A2: VLC's activation interrupts mpv
            _ = machine.handle(.notification(mpv, .interruptionBegan(reason: .default)))
            _ = machine.handle(.status(mpv, .paused))
        }
        for id in [vlc, mpv] where mixing || id == vlc {  // I4: the call interrupts who is active
            _ = machine.handle(.notification(id, .interruptionBegan(reason: .default)))
            _ = machine.handle(.status(id, .paused))
        }
        var commands: [PlayerMachine.Command] = []
        for id in order { commands += end(&machine, id) }
        return commands
    }

    @Test("PL4 with I2: after a call only the player that was playing resumes, not the one it had paused")
    func callAfterASecondPlayer() {
        let vlc = "vlc-conn"
        #expect(Self.twoPlayersAndACall(mixing: false, endsInOrder: [Self.mpv, vlc]) == [.mpris(vlc, .play)])
        #expect(Self.twoPlayersAndACall(mixing: false, endsInOrder: [vlc, Self.mpv]) == [.mpris(vlc, .play)])
        #expect(
            Self.twoPlayersAndACall(mixing: true, endsInOrder: [Self.mpv, vlc]) == [.mpris(Self.mpv, .play), .mpris(vlc, .play)],
            "players that mix were both playing: both resume")
    }

    @Test("PL2, PL4: a player whose playing was refused during a call took over from nobody")
    func refusedStartTakesOverNothing() {
        var machine = PlayerMachine()
        let vlc = "vlc-conn"
        var vlcPlayer = Self.mpvPlayer(.paused)
        vlcPlayer.busName = "org.mpris.MediaPlayer2.vlc"
        _ = machine.handle(.appeared(Self.mpv, Self.mpvPlayer()))
        _ = machine.handle(.appeared(vlc, vlcPlayer))
        _ = machine.handle(.notification(Self.mpv, .interruptionBegan(reason: .default)))
        _ = machine.handle(.status(Self.mpv, .paused))
        #expect(machine.handle(.status(vlc, .playing)) == [.activate(vlc)])
        #expect(machine.handle(.activationRefused(vlc)).first == .mpris(vlc, .pause))
        #expect(Self.end(&machine, Self.mpv) == [.mpris(Self.mpv, .play)])
    }
}
