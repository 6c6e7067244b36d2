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

/// SPEC §16: MPRIS players on the session bus as apps. The bus adapter only: what it sees goes
/// into the `PlayerMachine`, whose commands it carries out — session calls through the client
/// library (one app connection per player), MPRIS methods on the bus. Everything runs on one
/// thread (`run()`), asleep in poll(2) until the bus or a session has something; a session's
/// notifications are handed over through an inbox and an eventfd.
final class Bridge: @unchecked Sendable {
    static let prefix = "org.mpris.MediaPlayer2."
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private let transport: AudioSessionTransport
    private let logger: Logger
    private var machine = PlayerMachine()
    private var bus: SessionBus?
    /// The governed players' sessions, by unique connection name.
    private var sessions: [PlayerMachine.PlayerID: AudioSession] = [:]
    /// Each known player's bus names (a player may own two: `mpv` and `mpv.instance42`).
    private var names: [PlayerMachine.PlayerID: Set<String>] = [:]
    /// Each known player's process and MPRIS identity.
    private var programs: [PlayerMachine.PlayerID: (pid: UInt32, identity: String)] = [:]
    /// Further connections of a known player's program, each to the player's id: VLC owns
    /// `vlc` on one connection and `vlc.instanceN` on another; one program is one player (PL1).
    private var aliases: [String: PlayerMachine.PlayerID] = [:]
    /// The last track id seen of each player (a new one is PL5's "changed its track").
    private var tracks: [PlayerMachine.PlayerID: String] = [:]
    /// PL6 (revision 5): players not ready yet — their name taken, their object not exported —
    /// by bus name: their owner, when they first answered so, and when they are asked again.
    private var notReady: [String: (owner: String, since: ContinuousClock.Instant, next: ContinuousClock.Instant)] = [:]
    /// How long a player may answer "no such object" before it is faulty, and how often it is asked again.
    static let readyWithin = Duration.seconds(5)
    static let askAgainEvery = Duration.milliseconds(250)
    /// PL9: where the claims to resume are kept, what a previous run left there not yet matched
    /// to a player found again, and what was last written.
    private let keptClaims = KeptClaims()
    private var claimsLeft: [KeptClaim] = []
    private var claimsWritten: [KeptClaim] = []
    private let inbox = Mutex<[PlayerMachine.Input]>([])
    /// When each player's last `interruption began` reached the bridge (for the debug log's
    /// figure: the bridge's own time to the Pause it sends).
    private let interrupted = Mutex<[PlayerMachine.PlayerID: ContinuousClock.Instant]>([:])
    private let wake: Int32

    init(transport: AudioSessionTransport, logger: Logger) {
        self.transport = transport
        self.logger = logger
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        claimsLeft = keptClaims.load()
        claimsWritten = claimsLeft
        if !claimsLeft.isEmpty {
            logger.info("claims to resume players kept by the last run (PL9)", metadata: ["players": "\(claimsLeft.count)"])
        }
    }

    /// Serves until the process ends: connects to the bus (again, after it went away), finds the
    /// players there, and follows them.
    func run() -> Never {
        var delay: UInt32 = 100_000
        while true {
            do {
                try connect()
                delay = 100_000
                loop()
            } catch {
                logger.warning("no session bus; trying again", metadata: ["error": "\(error)"])
            }
            // PL6: the bus went away: every player departs and its streams are other audio.
            carryOut(feed(.busLost))
            names.removeAll()
            programs.removeAll()
            aliases.removeAll()
            tracks.removeAll()
            bus = nil
            usleep(delay)
            delay = min(delay * 2, 2_000_000)
        }
    }

    private func connect() throws(SessionBus.Failure) {
        let bus = try SessionBus()
        self.bus = bus
        let me = Unmanaged.passUnretained(self).toOpaque()
        try bus.match(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", { message, userdata, _ in Bridge.of(userdata).nameOwnerChanged(message!) }, me)
        try bus.match(
            sender: nil, path: Self.objectPath, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            { message, userdata, _ in Bridge.of(userdata).propertiesChanged(message!) }, me)
        try bus.match(
            sender: nil, path: Self.objectPath, interface: Self.playerInterface, member: "Seeked",
            { message, userdata, _ in Bridge.of(userdata).seeked(message!) }, me)
        let reply = try bus.callBus("ListNames")
        defer { sd_bus_message_unref(reply) }
        var found: [String] = []
        if sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 {
            while let name = reply.readString() { found.append(name) }
        }
        logger.info("watching the session bus for MPRIS players", metadata: ["players": "\(found.filter(Self.isPlayer).count)"])
        for name in found.sorted() where Self.isPlayer(name) { discover(name) }
    }

    private static func of(_ userdata: UnsafeMutableRawPointer?) -> Bridge {
        Unmanaged<Bridge>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static func isPlayer(_ name: String) -> Bool { name.hasPrefix(prefix) && name.count > prefix.count }

    /// Asleep until the bus or a session has something; returns when the bus is gone.
    private func loop() {
        guard let bus else { return }
        while true {
            guard bus.process() else { return }
            let inputs = inbox.withLock { inbox in
                defer { inbox.removeAll() }
                return inbox
            }
            for input in inputs {
                carryOut(feed(input))
                // MS2: a daemon started again gives the player's app its intent again (its file may differ).
                if case .notification(let id, .mediaServicesReset) = input { carryOut(feed(intent(of: id))) }
                if case .notification(let id, .routeChange(.oldDeviceUnavailable, let previous, _)) = input {
                    deviceMayBeLost(id, previous: previous)
                }
            }
            askNotReadyAgain()
            guard bus.process() else { return }
            var fds = [
                pollfd(fd: bus.descriptor, events: bus.events, revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&fds, 2, timeout(bus.timeoutMilliseconds))
            if fds[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
        }
    }

    /// PL6: the players not ready yet whose time to be asked again has come.
    private func askNotReadyAgain() {
        let now = ContinuousClock.now
        for (name, entry) in notReady where entry.next <= now { discover(name) }
    }

    /// The poll's timeout: the bus's, or sooner when a player not ready yet is to be asked again.
    private func timeout(_ bus: Int32) -> Int32 {
        guard let next = notReady.values.map(\.next).min() else { return bus }
        let left = next - .now
        let milliseconds = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        return bus < 0 ? milliseconds : min(bus, milliseconds)
    }

    /// PL8: a player's private output went away; the daemon stopped its output if it is to pause
    /// (`policy.players-pause-on-device-loss`): then the player is told to.
    private func deviceMayBeLost(_ id: PlayerMachine.PlayerID, previous: Route) {
        guard previous.outputs.contains(where: \.type.isPrivate), let session = sessions[id],
            (try? session.status().isOutputRunning) == false
        else { return }
        carryOut(feed(.deviceLost(id)))
    }

    /// From a session's queue: an input for the loop.
    private func post(_ input: PlayerMachine.Input) {
        switch input {
        case .notification(let id, .interruptionBegan), .notification(let id, .routeChange(.oldDeviceUnavailable, _, _)):
            interrupted.withLock { $0[id] = .now }  // the figure of the Pause that may follow
        default: break
        }
        inbox.withLock { $0.append(input) }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    // MARK: What the bus tells

    private func nameOwnerChanged(_ message: OpaquePointer) -> Int32 {
        guard let name = message.readString(), let old = message.readString(), let new = message.readString() else { return 0 }
        if Self.isPlayer(name) {
            notReady[name] = nil
            if !new.isEmpty { discover(name) }
            if !old.isEmpty, let id = player(of: old) {
                names[id]?.remove(name)
                if names[id]?.isEmpty == true { vanished(id) }
            }
        } else if name.hasPrefix(":"), new.isEmpty {
            if names[name] != nil {
                vanished(name)  // the player's connection closed (its process ended)
            } else {
                aliases[name] = nil
            }
        }
        return 0
    }

    /// The player a connection speaks for: its own, or the program's first (`aliases`).
    private func player(of connection: String) -> PlayerMachine.PlayerID? {
        aliases[connection] ?? (names[connection] != nil ? connection : nil)
    }

    private func vanished(_ id: String) {
        names[id] = nil
        programs[id] = nil
        tracks[id] = nil
        aliases = aliases.filter { $0.value != id }
        carryOut(feed(.vanished(id)))
    }

    private func propertiesChanged(_ message: OpaquePointer) -> Int32 {
        guard let connection = message.readSenderID() else { return 0 }
        // PL6: a player not ready yet announcing its properties has exported its object: asked now.
        for (name, entry) in notReady where entry.owner == connection { discover(name) }
        guard let sender = player(of: connection), let interface = message.readString(),
            interface == Self.playerInterface
        else { return 0 }
        var inputs: [PlayerMachine.Input] = []
        let wellFormed = message.readDictionary { key, signature in
            switch (key, signature) {
            case ("PlaybackStatus", "s"):
                if let text = message.readString(), let status = PlayerMachine.Status(rawValue: text) {
                    inputs.append(.status(sender, status))
                } else {
                    inputs.append(.fault(sender, "a PlaybackStatus that is not Playing, Paused or Stopped"))
                }
            case ("PlaybackStatus", _):
                inputs.append(.fault(sender, "a PlaybackStatus of type \(signature)"))
            case ("Metadata", "a{sv}"):
                if let track = Self.trackID(message), tracks.updateValue(track, forKey: sender) != track {
                    inputs.append(.newTrack(sender))
                }
            case ("CanPause", "b"):  // PL3 (revision 5): what it can do now
                inputs.append(.abilities(sender, canPause: message.readBool(), canControl: nil))
            case ("CanControl", "b"):
                inputs.append(.abilities(sender, canPause: nil, canControl: message.readBool()))
            default:
                break
            }
        }
        if !wellFormed { inputs.append(.fault(sender, "malformed PropertiesChanged")) }
        for input in inputs { carryOut(feed(input)) }
        return 0
    }

    private func seeked(_ message: OpaquePointer) -> Int32 {
        guard let connection = message.readSenderID(), let sender = player(of: connection) else { return 0 }
        // PL5: a Seeked without a position is taken as a seek (far from anywhere the player was).
        carryOut(feed(.seeked(sender, position: message.readInt64() ?? .min / 2, at: Self.monotonicNanoseconds())))
        return 0
    }

    /// Now on the monotonic clock, in nanoseconds (PL5's times).
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// PL5: where the player is, read just before it is paused — the Pause's answer, and any
    /// `Seeked` it announces itself with, come after this one's (the player answers in order).
    private func readPosition(_ id: PlayerMachine.PlayerID, of name: String) {
        bus?.callLater(
            name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"]
        ) { [weak self] reply, _ in
            guard let self, let reply, sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0,
                let position = reply.readInt64()
            else { return }  // no position: a later Seeked is taken as a seek
            self.carryOut(self.feed(.position(id, position, at: Self.monotonicNanoseconds())))
        }
    }

    /// PL5 (revision 6): where the player is as an interruption ends, before it is told Play (a
    /// seek need not be announced); nil fed back when it has no Position or does not answer.
    private func readPositionBeforePlay(_ id: PlayerMachine.PlayerID, of name: String) {
        bus?.callLater(
            name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"]
        ) { [weak self] reply, _ in
            guard let self else { return }
            var position: Int64?
            if let reply, sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0 {
                position = reply.readInt64()
            }
            self.carryOut(self.feed(.positionBeforePlay(id, position, at: Self.monotonicNanoseconds())))
        }
    }

    /// `mpris:trackid` of a Metadata dictionary (positioned on it).
    private static func trackID(_ message: OpaquePointer) -> String? {
        var track: String?
        _ = message.readDictionary { key, signature in
            if key == "mpris:trackid", signature == "o" || signature == "s" { track = message.readString(Character(signature)) }
        }
        return track
    }

    /// A player's name appeared: who it is, its process and user, its status (PL1). Each answer
    /// is waited for 1 s at most (PL6).
    private func discover(_ name: String) {
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
    private func restoreClaim(of id: String, name: String, pid: UInt32, identity: String, status: PlayerMachine.Status) {
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

    /// A player's `Position` now (µs), waited for 1 s at most; nil when it has none.
    private func readPositionNow(of name: String) -> Int64? {
        guard let bus,
            let reply = try? bus.call(
                name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"])
        else { return nil }
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0 else { return nil }
        return reply.readInt64()
    }

    /// PL9: the claims as they stand now (the machine's, and those kept by a previous run not yet
    /// matched), written when they changed.
    private func saveClaims() {
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

    // MARK: What the machine says

    /// One input to the machine (logged at debug); its commands.
    private func feed(_ input: PlayerMachine.Input) -> [PlayerMachine.Command] {
        let commands = machine.handle(input)
        logger.debug("\(input) → \(commands)")
        saveClaims()
        return commands
    }

    /// The intent the daemon gave a player's app (PL1, POL1), as the machine needs it (PL4).
    private func intent(of id: PlayerMachine.PlayerID) -> PlayerMachine.Input {
        let options = (try? sessions[id]?.status().categoryOptions) ?? []
        return .intent(id, mixesWithOthers: options.contains(.mixWithOthers))
    }

    private func carryOut(_ commands: [PlayerMachine.Command]) {
        var queue = commands[...]
        while let command = queue.popFirst() {
            queue.append(contentsOf: carryOut(command))
        }
    }

    /// One command; what the machine says to an answer that comes at once (a refusal).
    private func carryOut(_ command: PlayerMachine.Command) -> [PlayerMachine.Command] {
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
