import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The soak's load: N app connections churning through connect, configure, activate, start
/// and stop output, deactivate and disconnect, and one system controller interleaving system
/// events and checking the engine's invariants, all on one poll(2) loop so a thousand clients
/// cost the machine a thousand sockets, not a thousand threads.
final class SoakLoad {
    struct Settings {
        var socket: String
        var clients: Int
        var seconds: Double
        var warmUp: Double
        /// Seconds between system events; 0 for none.
        var systemInterval: Double
        /// Seconds a client waits between its operations (0: none, as fast as the daemon answers).
        var pause: Double
        var seed: UInt64
    }

    /// One app slot. Each cycle alternates between two app ids, so a reconnecting client never
    /// races the departure of its own previous connection.
    private struct Client {
        var connection: SoakConnection?
        var generation = 0
        /// -1 while waiting for the welcome, else the index in `cycle` of the outstanding request.
        var step = -1
        var awaiting: UInt32 = 0
        var configuration = 0
        var lastSequence: UInt64?
        /// When paused: the time its next operation is due (0: not waiting).
        var due: UInt64 = 0
        /// Answered while the load rests; goes on when it resumes.
        var held = false
        var app: AppID { AppID("soak-\(index)-\(generation % 2 == 0 ? "a" : "b")") }
        let index: Int
    }

    static let configurations: [(Category, Mode, CategoryOptions)] = [
        (.playback, .default, []), (.playback, .default, .mixWithOthers), (.playback, .default, .duckOthers),
        (.ambient, .default, []), (.soloAmbient, .default, []), (.playAndRecord, .voiceChat, []),
        (.playback, .spokenAudio, []), (.playback, .voicePrompt, .interruptSpokenAudioAndMixWithOthers),
    ]

    private let settings: Settings
    private var clients: [Client]
    private var controller: SoakController
    private var random: SplitMix64
    private(set) var tally = SoakTally()
    /// Hellos and requests sent and not yet answered.
    private var inFlight = 0
    /// While measuring the daemon at rest, answers hold their client instead of sending on.
    private var resting = false
    /// Time spent at rest, left out of the operations per second.
    private(set) var restNanoseconds: UInt64 = 0

    init(_ settings: Settings) throws {
        self.settings = settings
        clients = (0..<settings.clients).map { Client(index: $0) }
        random = SplitMix64(seed: settings.seed)
        controller = try SoakController(socket: settings.socket, systemInterval: settings.systemInterval)
    }

    /// Runs the load for the settings' time, then disconnects every app and checks the device
    /// is left as it should be.
    func run() throws(SoakError) {
        let start = Self.now()
        let warmEnd = start + UInt64(settings.warmUp * 1e9)
        let end = start + UInt64(settings.seconds * 1e9)
        try controller.start(&tally)
        tally.rssStart = controller.daemonPID.flatMap { ProcessMemory.residentKiB(of: $0) }
        for index in clients.indices { connect(index) }
        var warmedUp = false
        var nextSample = start
        while Self.now() < end {
            pollOnce(timeoutMilliseconds: settings.pause > 0 ? 1 : 5)
            controller.tick(now: Self.now(), &tally)
            if settings.pause > 0 { sendDue(now: Self.now()) }
            if Self.now() >= nextSample {
                nextSample += UInt64(settings.seconds * 1e8)
                if let rss = controller.daemonPID.flatMap({ ProcessMemory.residentKiB(of: $0) }) { tally.rssSamples.append(rss) }
            }
            if !warmedUp, Self.now() >= warmEnd {
                warmedUp = true
                tally.rssAfterWarmUp = rssAtRest()
            }
        }
        tally.rssEnd = rssAtRest()
        for index in clients.indices {
            clients[index].connection?.close()
            clients[index].connection = nil
        }
        controller.finish(&tally)
    }

    /// The daemon's RSS at rest, so queues in flight do not count as growth: every client
    /// answered and read, then a little longer than the daemon's memory trim interval (2 s),
    /// with every app still connected. The load resumes afterwards.
    private func rssAtRest() -> Int? {
        let began = Self.now()
        resting = true
        let deadline = began + 10_000_000_000
        while inFlight > 0, Self.now() < deadline { pollOnce(timeoutMilliseconds: 5) }
        let settled = Self.now() + 2_500_000_000
        while Self.now() < settled { pollOnce(timeoutMilliseconds: 50) }
        let rss = controller.daemonPID.flatMap { ProcessMemory.residentKiB(of: $0) }
        resting = false
        for index in clients.indices where clients[index].held {
            clients[index].held = false
            if clients[index].step < 0 { send(index, step: 0) } else { next(index) }
        }
        restNanoseconds += Self.now() - began
        return rss
    }

    private func pollOnce(timeoutMilliseconds: Int32) {
        var fds = clients.map { pollfd(fd: $0.connection?.fd ?? -1, events: Int16(POLLIN), revents: 0) }
        fds.append(pollfd(fd: controller.fd, events: Int16(POLLIN), revents: 0))
        guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return }
        for index in clients.indices where fds[index].revents != 0 { receive(index) }
        if fds[clients.count].revents != 0 { controller.receive(&tally) }
    }

    private func connect(_ index: Int) {
        clients[index].generation += 1
        clients[index].step = -1
        clients[index].lastSequence = nil
        clients[index].configuration = Int(random.next() % UInt64(Self.configurations.count))
        do {
            let hello = Hello(role: .app(clients[index].app, [.backgroundAudio]))
            clients[index].connection = try SoakConnection(socket: settings.socket, hello: hello)
            inFlight += 1
        } catch {
            tally.error("\(clients[index].app): cannot connect: \(error)")
            clients[index].connection = nil
        }
    }

    private func receive(_ index: Int) {
        guard var connection = clients[index].connection else { return }
        let app = clients[index].app
        do {
            guard let messages = try connection.receive() else {
                tally.error("\(app): the daemon closed the connection")
                if !clients[index].held, clients[index].due == 0 { inFlight -= 1 }  // its request is lost
                connection.close()
                clients[index].connection = nil
                return connect(index)
            }
            clients[index].connection = connection
            for message in messages { handle(message, index) }
        } catch {
            tally.error("\(app): undecodable bytes from the daemon: \(error)")
        }
    }

    private func handle(_ message: ServerMessage, _ index: Int) {
        let app = clients[index].app
        switch message {
        case .welcome:
            inFlight -= 1
            tally.connects += 1
            tally.operations += 1
            if resting { clients[index].held = true } else { send(index, step: 0) }
        case .reply(let id, let reply):
            guard id == clients[index].awaiting else { return tally.error("\(app): a reply to request \(id) it did not send") }
            inFlight -= 1
            tally.operations += 1
            check(reply, of: Self.cycle(clients[index].configuration)[clients[index].step], app)
            if resting {
                clients[index].held = true
            } else if settings.pause > 0 {
                clients[index].due = Self.now() + UInt64(settings.pause * 1e9)
            } else {
                next(index)
            }
        case .event(.notification(let sequence, _)):
            tally.notifications += 1
            if let last = clients[index].lastSequence, sequence <= last {
                tally.error("\(app): notification \(sequence) arrived after \(last)")
            }
            clients[index].lastSequence = sequence
        case .event:
            break
        case .closing(let error):
            tally.error("\(app): closed by the daemon: \(error)")
        }
    }

    /// A reply is the success the call should have, or a refusal SPEC allows at that moment.
    private func check(_ reply: Reply, of call: AppCall, _ app: AppID) {
        let activates =
            switch call {
            case .setActive(true, _), .startOutput: true
            default: false
            }
        if case .setActive(true, _) = call { tally.activations += 1 }
        switch reply {
        case .done: break
        case .failed(let error) where activates && error.code == .insufficientPriority:
            tally.refusedActivations += 1  // A3: a call is active
        default:
            tally.error("\(app): \(call) answered \(reply)")
        }
    }

    private func sendDue(now: UInt64) {
        for index in clients.indices where clients[index].due != 0 && clients[index].due <= now {
            clients[index].due = 0
            next(index)
        }
    }

    private func next(_ index: Int) {
        let step = clients[index].step + 1
        guard step < Self.cycle(clients[index].configuration).count else {
            clients[index].connection?.close()
            clients[index].connection = nil
            return connect(index)
        }
        send(index, step: step)
    }

    private func send(_ index: Int, step: Int) {
        clients[index].step = step
        let call = Self.cycle(clients[index].configuration)[step]
        do {
            clients[index].awaiting = try clients[index].connection!.request(.call(call))
            inFlight += 1
        } catch {
            tally.error("\(clients[index].app): cannot send \(call): \(error)")
        }
    }

    /// One client's life between connecting and disconnecting.
    static func cycle(_ configuration: Int) -> [AppCall] {
        let (category, mode, options) = configurations[configuration]
        return [
            .setCategory(category, mode: mode, options: options), .setActive(true), .startOutput, .stopOutput,
            .setActive(false, options: .notifyOthersOnDeactivation),
        ]
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// A small seeded generator, so a soak can be repeated exactly.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
