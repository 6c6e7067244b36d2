import AudioSessionModel
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The soak's system controller: it interleaves system events (a headphone plug, a call, the
/// volume, a wake) with the apps' churn, asks for the engine's invariants once a second, and
/// at the end checks the device is left with no app, no active session and no call.
struct SoakController {
    /// One round of system events; each thing it starts it also ends, so a whole round leaves
    /// the device as it found it (the volume goes back to where it was).
    static func events(volume: Double) -> [SystemEvent] {
        [
            .plug(.headphones, uid: "soak-headphones"), .systemSession(.call, begin: true), .outputVolume(volume / 2),
            .unplug(uid: "soak-headphones"), .systemSession(.call, begin: false), .outputVolume(volume), .wake,
        ]
    }

    private var connection: SoakConnection
    private let systemInterval: UInt64
    private var nextEvent = 0
    private var nextEventTime: UInt64 = 0
    private var nextCheckTime: UInt64 = 0
    private var awaiting: (id: UInt32, request: Request)?
    private(set) var daemonPID: Int32?
    private var events: [SystemEvent] = []
    var fd: Int32 { connection.fd }

    init(socket: String, systemInterval: Double) throws {
        connection = try SoakConnection(socket: socket, hello: Hello(role: .controller))
        self.systemInterval = UInt64(systemInterval * 1e9)
    }

    /// Waits for the welcome (the daemon's pid) and reads the volume to come back to.
    /// - Throws: when the daemon refuses the controller or closes.
    mutating func start(_ tally: inout SoakTally) throws(SoakError) {
        while daemonPID == nil {
            guard let messages = (try? connection.receive()) ?? nil else {
                throw SoakError("the daemon closed the controller connection")
            }
            for message in messages {
                switch message {
                case .welcome(_, let pid): daemonPID = pid
                case .closing(let error): throw SoakError("the daemon refused a controller connection: \(error)")
                default: break
                }
            }
        }
        guard case .device(let snapshot)? = exchange(.deviceStatus, &tally) else {
            throw SoakError("no device status from the daemon")
        }
        events = Self.events(volume: snapshot.device.outputVolume)
    }

    /// Sends the next system event or invariant check when one is due and nothing is in flight.
    mutating func tick(now: UInt64, _ tally: inout SoakTally) {
        guard awaiting == nil else { return }
        if now >= nextCheckTime {
            nextCheckTime = now + 1_000_000_000
            send(.deviceStatus, &tally)
        } else if systemInterval > 0, now >= nextEventTime {
            nextEventTime = now + systemInterval
            send(.system(events[nextEvent % events.count]), &tally)
            nextEvent += 1
        }
    }

    private mutating func send(_ request: Request, _ tally: inout SoakTally) {
        do {
            awaiting = (try connection.request(request), request)
        } catch {
            tally.error("controller: cannot send \(request): \(error)")
        }
    }

    /// Reads and checks replies; false when the daemon closed the connection.
    @discardableResult
    mutating func receive(_ tally: inout SoakTally) -> Bool {
        guard let messages = (try? connection.receive()) ?? nil else {
            tally.error("controller: the daemon closed the connection")
            return false
        }
        for case .reply(let id, let reply) in messages {
            guard let (expected, request) = awaiting, expected == id else {
                tally.error("controller: a reply to request \(id) it did not send")
                continue
            }
            awaiting = nil
            tally.operations += 1
            check(reply, to: request, &tally)
        }
        return true
    }

    private func check(_ reply: Reply, to request: Request, _ tally: inout SoakTally) {
        switch (request, reply) {
        case (.system, .done):
            tally.systemEvents += 1
        case (.deviceStatus, .device(let snapshot)):
            tally.invariantChecks += 1
            for violation in snapshot.violations { tally.error("invariant broken: \(violation)") }
        default:
            tally.error("controller: \(request) answered \(reply)")
        }
    }

    /// After the apps disconnected: ends the call and unplugs if the cycle left them so, waits
    /// (bounded) until every app has departed, then checks the device is idle and healthy.
    mutating func finish(_ tally: inout SoakTally) {
        while awaiting != nil, receive(&tally) {}
        // The rest of the round's endings: unplug, end the call, the volume back.
        let position = nextEvent % events.count
        if (1...3).contains(position) { exchange(.system(events[3]), &tally) }
        if (2...4).contains(position) { exchange(.system(events[4]), &tally) }
        if (3...5).contains(position) { exchange(.system(events[5]), &tally) }
        let deadline = SoakLoad.now() + 10_000_000_000
        var snapshot: DeviceSnapshot?
        repeat {
            guard case .device(let latest)? = exchange(.deviceStatus, &tally) else { break }
            snapshot = latest
            if latest.apps.isEmpty { break }
            usleep(20_000)
        } while SoakLoad.now() < deadline
        tally.invariantChecks += 1
        guard let snapshot else { return tally.error("controller: no device status at the end") }
        if !snapshot.apps.isEmpty { tally.error("apps still connected 10 s after disconnecting: \(snapshot.apps.count)") }
        if !snapshot.device.activeApps.isEmpty { tally.error("sessions still active at the end: \(snapshot.device.activeApps)") }
        if !snapshot.device.systemSessions.isEmpty {
            tally.error("system sessions left at the end: \(snapshot.device.systemSessions)")
        }
        if let owner = snapshot.device.routingOwner { tally.error("a routing owner left at the end: \(owner)") }
        for violation in snapshot.violations { tally.error("invariant broken at the end: \(violation)") }
        connection.close()
    }

    /// Sends a request and waits for its reply (end of the run only: nothing else is in flight).
    @discardableResult
    private mutating func exchange(_ request: Request, _ tally: inout SoakTally) -> Reply? {
        guard let id = try? connection.request(request) else {
            tally.error("controller: cannot send \(request)")
            return nil
        }
        while let messages = (try? connection.receive()) ?? nil {
            for case .reply(id, let reply) in messages {
                if case .system = request, reply != .done { tally.error("controller: \(request) answered \(reply)") }
                return reply
            }
        }
        tally.error("controller: the daemon closed the connection")
        return nil
    }
}
