import AudioSessionModel

/// SPEC §16: the decisions of the players bridge, as a pure state machine. What happens to an
/// MPRIS player (its status as it reports it, a seek, a new track, its leaving) and to its
/// session (the notifications the daemon sends, the answer to an activation, an MPRIS call that
/// failed) goes in as an `Input`; what the bridge must do — a session call, an MPRIS method — comes
/// out as `Command`s, in order. The bus adapter only carries them out, so every rule is tested
/// here without a bus.
public struct PlayerMachine: Sendable {
    /// A player as the bus knows it: its unique connection (`:1.42`), one per player even when it
    /// owns two names (PL1).
    public typealias PlayerID = String

    /// MPRIS `PlaybackStatus`.
    public enum Status: String, Sendable, Equatable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    /// What the bus tells of a player when it appears.
    public struct Description: Sendable, Equatable {
        /// The bus name it was found under (`org.mpris.MediaPlayer2.vlc.instance42`).
        public var busName: String
        public var identity: String
        public var processID: Int32
        public var uid: UInt32
        public var status: Status
        public var canPause: Bool
        public var canControl: Bool

        public init(
            busName: String, identity: String, processID: Int32, uid: UInt32, status: Status, canPause: Bool = true,
            canControl: Bool = true
        ) {
            self.busName = busName
            self.identity = identity
            self.processID = processID
            self.uid = uid
            self.status = status
            self.canPause = canPause
            self.canControl = canControl
        }
    }

    public enum Input: Sendable, Equatable {
        /// A player appeared on the bus (or was there when the bridge started).
        case appeared(PlayerID, Description)
        /// Its `PlaybackStatus` changed (as it reports it).
        case status(PlayerID, Status)
        /// Its track (`Metadata`'s `mpris:trackid`) changed.
        case newTrack(PlayerID)
        /// PL8: the private device it played through went away, and the daemon stopped its output.
        case deviceLost(PlayerID)
        /// PL9: a claim to resume it that the bridge had before it restarted, still standing (the
        /// player is where it was paused, on the same track): paused by the interruption again.
        case claimRestored(PlayerID, position: Int64?)
        /// PL3 (revision 5): it says it can pause, or control, now — followed as it changes (a
        /// player says `CanPause` false until its first track is loaded); nil: unchanged.
        case abilities(PlayerID, canPause: Bool?, canControl: Bool?)
        /// It sent `Seeked` with this position (µs), at this time (ns, a monotonic clock): a seek,
        /// or an announcement of where it already is (PL5 as revised).
        case seeked(PlayerID, position: Int64, at: UInt64)
        /// Its `Position` (µs) as read at this time (ns): where it is, for PL5's comparison.
        case position(PlayerID, Int64, at: UInt64)
        /// PL5 (revision 6): its `Position` as read for `readPositionBeforePlay` (nil: it has none,
        /// or did not answer), at this time (ns).
        case positionBeforePlay(PlayerID, Int64?, at: UInt64)
        /// It left the bus, or its process ended.
        case vanished(PlayerID)
        /// Its session's notification.
        case notification(PlayerID, SessionNotification)
        /// The session's activation (and output start) was refused (A3, A4: a call, an alarm).
        case activationRefused(PlayerID)
        /// The intent the daemon gave its app (PL1, POL1): whether it mixes with others (O3).
        case intent(PlayerID, mixesWithOthers: Bool)
        /// PL6: an MPRIS call or property did not answer within 1 s, failed, or was malformed.
        case fault(PlayerID, String)
        /// The session bus went away: every player departs (PL6).
        case busLost
    }

    public enum Command: Sendable, Equatable {
        /// Connect the player's app (id, MPRIS identity, process, the last part of its bus name);
        /// the daemon gives it its intent (PL1, POL1).
        case register(PlayerID, app: AppID, identity: String, processID: Int32, busName: String)
        /// PL2: activate the session and report output running; refused → `activationRefused`.
        case activate(PlayerID)
        /// PL2: output stopped, the session deactivated (without notifyOthers).
        case deactivate(PlayerID)
        /// The app departs (a player gone, a faulty one given up to other audio, PL6).
        case depart(PlayerID)
        /// An MPRIS method on the player.
        case mpris(PlayerID, Method)
        /// PL5 (revision 6): read its `Position` and feed it back (`positionBeforePlay`): Play
        /// follows only if nobody seeked it meanwhile.
        case readPositionBeforePlay(PlayerID)
        /// A line for the log (once per player and kind).
        case log(PlayerID, String)
    }

    public enum Method: String, Sendable, Equatable {
        case pause = "Pause", play = "Play", stop = "Stop"
    }

    /// At most this many players per uid are governed; more stay other audio (PL6).
    public static let playersPerUID = 64

    struct Player: Sendable {
        var app: AppID
        var uid: UInt32
        var status: Status
        var canPause: Bool
        var canControl: Bool
        /// The session is active with output (as far as the bridge asked).
        var active = false
        /// PL3, PL4: paused by an interruption while Playing, and nobody has touched it since.
        var pausedByInterruption = false
        /// We asked it to pause or stop: the next Paused/Stopped is our own echo.
        var awaitsOwnPause = false
        /// We asked it to play: the next Playing is our own echo.
        var awaitsOwnPlay = false
        /// PL2, PL6: its playing refused in a row (a player that plays again by itself): after
        /// `refusalsBeforeGivingUp` it is left muted rather than paused again and again.
        var refusals = 0
        /// Its intent mixes with others (O3); non-mixable until the daemon says (PL1's default).
        var mixesWithOthers = false
        /// When its session last activated (the bridge's own count), and the time before that
        /// (restored when the activation is refused): PL4's "another player started since".
        var startedAt: UInt64 = 0
        var startedBefore: UInt64 = 0
        /// PL5: where it was last known to be (µs), when (ns), and whether it was playing then.
        var anchor: (position: Int64, at: UInt64, playing: Bool)?
        /// PL5 (revision 6): an interruption ended with its claim standing; its Position is read
        /// before Play.
        var awaitsPosition = false
    }

    /// PL5 (revision 5): a `Seeked` this close (µs) to where the player is expected to be is an
    /// announcement, not a seek.
    public static let seekTolerance: Int64 = 1_000_000

    /// A player refused this many times in a row is not told to pause again (its streams stay
    /// muted by the session) until the interruption ends: no endless Pause/Play between the
    /// bridge and a player that restarts itself.
    public static let refusalsBeforeGivingUp = 3

    var players: [PlayerID: Player] = [:]
    /// Players given up to other audio (PL6) or over the limit: ignored until they leave.
    var ignored: Set<PlayerID> = []
    /// Activations counted, for `Player.startedAt`.
    var starts: UInt64 = 0

    public init() {}

    /// The prefix of every MPRIS player's bus name.
    public static let busPrefix = "org.mpris.MediaPlayer2."

    /// A bus name's part after `org.mpris.MediaPlayer2.` (`vlc.instance42`): what POL1's
    /// `bus-name:` matches.
    public static func lastPart(ofBusName name: String) -> String {
        name.hasPrefix(busPrefix) ? String(name.dropFirst(busPrefix.count)) : name
    }

    /// The app id of a bus name (PL1): `mpris.` + the name's part after `org.mpris.MediaPlayer2.`,
    /// reduced to T3's characters (others become `_`), at most 255 bytes.
    public static func appID(forBusName name: String) -> AppID {
        let part = lastPart(ofBusName: name)
        let safe = String(
            part.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": Character(scalar)
                default: "_"
                }
            })
        return AppID(String(("mpris." + (safe.isEmpty ? "_" : safe)).prefix(255)))
    }

    /// One input; the commands it leads to, in order.
    public mutating func handle(_ input: Input) -> [Command] {
        switch input {
        case .appeared(let id, let description): return appeared(id, description)
        case .busLost:
            let gone = players.keys.sorted()
            players.removeAll()
            ignored.removeAll()
            return gone.map { .depart($0) }
        case .vanished(let id):
            ignored.remove(id)
            guard players.removeValue(forKey: id) != nil else { return [] }
            return [.depart(id)]  // PL2: cleanup as a disconnected client
        case .fault(let id, let why):
            // PL6: governed as other audio from now on (until it leaves); logged once.
            guard players.removeValue(forKey: id) != nil else { return [] }
            ignored.insert(id)
            return [.log(id, "\(why); governed as other audio from now on"), .depart(id)]
        default:
            break
        }
        guard let id = input.player, var player = players[id] else { return [] }
        defer { players[id] = player }
        switch input {
        case .status(_, let status): return statusChanged(id, &player, to: status)
        case .newTrack:
            // PL5: a new track while paused by an interruption ends the claim to resume.
            player.pausedByInterruption = false
            player.awaitsPosition = false
            return []
        case .claimRestored(_, let position):
            guard player.status != .playing else { return [] }  // the user played it meanwhile
            player.pausedByInterruption = true
            if let position { player.anchor = (position, 0, false) }
            return []
        case .deviceLost:
            // PL8: paused, as an iOS player pauses when its headphones are pulled; not by an
            // interruption, so nothing resumes it (not even the device coming back).
            guard player.status == .playing else { return [] }
            player.pausedByInterruption = false
            return pause(id, &player)
        case .abilities(_, let canPause, let canControl):
            if let canPause { player.canPause = canPause }
            if let canControl { player.canControl = canControl }
            return []
        case .seeked(_, let position, let now):
            // PL5 (revision 5): a seek only if the position moved — browsers announce where they
            // are with a `Seeked` on every pause and play.
            if !Self.isAnnouncement(position, at: now, of: player) {
                player.pausedByInterruption = false
                player.awaitsPosition = false
            }
            player.anchor = (position, now, player.status == .playing)
            return []
        case .position(_, let position, let now):
            player.anchor = (position, now, player.status == .playing)
            return []
        case .positionBeforePlay(_, let position, let now):
            // PL5 (revision 6): a seek need not be announced: more than 1 s from where it was
            // paused, the user seeked — the claim ends and it stays paused.
            // (Still Playing as far as we know is a Pause not answered yet: it takes the two in order.)
            guard player.awaitsPosition else { return [] }
            player.awaitsPosition = false
            guard player.canControl else { return [] }
            if let position, player.anchor != nil, !Self.isAnnouncement(position, at: now, of: player) {
                return [.log(id, "seeked while paused by the interruption (its Position moved, no Seeked said so); stays paused")]
            }
            player.awaitsOwnPlay = true
            return [.mpris(id, .play)]
        case .notification(_, let notification): return notified(id, &player, notification)
        case .intent(_, let mixes):
            player.mixesWithOthers = mixes
            return []
        case .activationRefused:
            // PL2: refused (A3 during a call, alarm or Siri; A4): paused at once, nothing resumes it.
            player.active = false
            player.startedAt = player.startedBefore  // it never played: it took over from nobody
            player.pausedByInterruption = false
            player.refusals += 1
            switch player.refusals {
            case 1: return pause(id, &player) + [.log(id, "playing refused by the session; paused")]
            case ..<Self.refusalsBeforeGivingUp: return pause(id, &player)
            case Self.refusalsBeforeGivingUp:
                return [.log(id, "plays again by itself each time it is paused; left muted until the interruption ends")]
            default: return []
            }
        case .appeared, .vanished, .busLost, .fault: return []
        }
    }

    /// PL9: the players paused by an interruption that may resume them, with where each was
    /// paused (µs; nil: not known) — what the bridge keeps across its own restart.
    public var claims: [PlayerID: Int64?] {
        var claims: [PlayerID: Int64?] = [:]
        for (id, player) in players where player.pausedByInterruption { claims[id] = player.anchor?.position }
        return claims
    }

    /// Whether a player is governed (for status and tests).
    public func governs(_ id: PlayerID) -> Bool { players[id] != nil }

    /// The app of a governed player.
    public func app(of id: PlayerID) -> AppID? { players[id]?.app }
}

extension PlayerMachine.Input {
    var player: PlayerMachine.PlayerID? {
        switch self {
        case .appeared(let id, _), .status(let id, _), .newTrack(let id), .deviceLost(let id), .claimRestored(let id, _),
            .abilities(let id, _, _),
            .seeked(let id, _, _),
            .position(let id, _, _), .positionBeforePlay(let id, _, _),
            .vanished(let id),
            .notification(let id, _), .activationRefused(let id), .intent(let id, _), .fault(let id, _):
            id
        case .busLost: nil
        }
    }
}
