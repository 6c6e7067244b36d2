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

    let transport: AudioSessionTransport
    let logger: Logger
    var machine = PlayerMachine()
    var bus: SessionBus?
    /// The governed players' sessions, by unique connection name.
    var sessions: [PlayerMachine.PlayerID: AudioSession] = [:]
    /// Each known player's bus names (a player may own two: `mpv` and `mpv.instance42`).
    var names: [PlayerMachine.PlayerID: Set<String>] = [:]
    /// Each known player's process and MPRIS identity.
    var programs: [PlayerMachine.PlayerID: (pid: UInt32, identity: String)] = [:]
    /// Further connections of a known player's program, each to the player's id: VLC owns
    /// `vlc` on one connection and `vlc.instanceN` on another; one program is one player (PL1).
    var aliases: [String: PlayerMachine.PlayerID] = [:]
    /// The last track id seen of each player (a new one is PL5's "changed its track").
    var tracks: [PlayerMachine.PlayerID: String] = [:]
    /// PL6 (revision 5): players not ready yet — their name taken, their object not exported —
    /// by bus name: their owner, when they first answered so, and when they are asked again.
    var notReady: [String: (owner: String, since: ContinuousClock.Instant, next: ContinuousClock.Instant)] = [:]
    /// How long a player may answer "no such object" before it is faulty, and how often it is asked again.
    static let readyWithin = Duration.seconds(5)
    static let askAgainEvery = Duration.milliseconds(250)
    /// PL9: where the claims to resume are kept, what a previous run left there not yet matched
    /// to a player found again, and what was last written.
    let keptClaims = KeptClaims()
    var claimsLeft: [KeptClaim] = []
    var claimsWritten: [KeptClaim] = []
    let inbox = Mutex<[PlayerMachine.Input]>([])
    /// When each player's last `interruption began` reached the bridge (for the debug log's
    /// figure: the bridge's own time to the Pause it sends).
    let interrupted = Mutex<[PlayerMachine.PlayerID: ContinuousClock.Instant]>([:])
    let wake: Int32

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

    func connect() throws(SessionBus.Failure) {
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

    static func of(_ userdata: UnsafeMutableRawPointer?) -> Bridge {
        Unmanaged<Bridge>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static func isPlayer(_ name: String) -> Bool { name.hasPrefix(prefix) && name.count > prefix.count }

    /// Asleep until the bus or a session has something; returns when the bus is gone.
    func loop() {
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
    func askNotReadyAgain() {
        let now = ContinuousClock.now
        for (name, entry) in notReady where entry.next <= now { discover(name) }
    }

    /// The poll's timeout: the bus's, or sooner when a player not ready yet is to be asked again.
    func timeout(_ bus: Int32) -> Int32 {
        guard let next = notReady.values.map(\.next).min() else { return bus }
        let left = next - .now
        let milliseconds = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        return bus < 0 ? milliseconds : min(bus, milliseconds)
    }

    /// PL8: a player's private output went away; the daemon stopped its output if it is to pause
    /// (`policy.players-pause-on-device-loss`): then the player is told to.
    func deviceMayBeLost(_ id: PlayerMachine.PlayerID, previous: Route) {
        guard previous.outputs.contains(where: \.type.isPrivate), let session = sessions[id],
            (try? session.status().isOutputRunning) == false
        else { return }
        carryOut(feed(.deviceLost(id)))
    }

    /// From a session's queue: an input for the loop.
    func post(_ input: PlayerMachine.Input) {
        switch input {
        case .notification(let id, .interruptionBegan), .notification(let id, .routeChange(.oldDeviceUnavailable, _, _)):
            interrupted.withLock { $0[id] = .now }  // the figure of the Pause that may follow
        default: break
        }
        inbox.withLock { $0.append(input) }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }
}
