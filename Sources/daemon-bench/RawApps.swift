import AudioSessionModel
import AudioSessionWire
import Foundation
import Synchronization

/// Many app connections served by one poll(2) thread, as light as clients get: each frame is
/// decoded as it arrives and a route change's arrival time recorded. It measures the daemon's
/// fan-out rather than the scheduling of a thousand client threads on the bench's own cores.
final class RawApps: Sendable {
    private let fds: [Int32]
    /// Arrival time of the last route change, per connection.
    let arrivals: Mutex<[UInt64]>
    private let decoders: Mutex<[FrameDecoder]>
    /// The last route change's payload the first connection received (the floor writes it).
    let lastRouteChange = Mutex<[UInt8]>([])

    /// `count` apps of the daemon at `socket`, each with a mixable playback category.
    convenience init(count: Int, socket: String, clock: @escaping @Sendable () -> UInt64) throws {
        var fds: [Int32] = []
        for index in 0..<count {
            let fd = try UnixSocket.connect(to: socket).get()
            try Self.exchange(fd, .hello(Hello(role: .app(AppID("raw-\(index)"), [.backgroundAudio]))))
            try Self.exchange(fd, .request(id: 1, .call(.setCategory(.playback, options: .mixWithOthers))))
            fds.append(fd)
        }
        self.init(fds: fds, clock: clock)
    }

    /// Reads these sockets (already connected to whatever writes to them).
    init(fds: [Int32], clock: @escaping @Sendable () -> UInt64) {
        let sample = ServerMessage.event(
            .notification(sequence: 7, .routeChange(reason: .newDeviceAvailable, previous: Route(), current: Route())))
        let other = ServerMessage.event(.notification(sequence: 7, .outputVolume(0.5)))
        precondition(Self.isRouteChange(sample.encoded()) && !Self.isRouteChange(other.encoded()), "the wire's tags moved")
        self.fds = fds
        arrivals = Mutex([UInt64](repeating: 0, count: fds.count))
        decoders = Mutex([FrameDecoder](repeating: FrameDecoder(), count: fds.count))
        let thread = Thread { [self] in run(clock) }
        thread.start()
    }

    /// Waits until every connection has had a route change since `reset()`; the last arrival.
    func lastArrival() -> UInt64 {
        var waited = 0
        while arrivals.withLock({ $0.contains(0) }) {
            usleep(100)
            waited += 1
            guard waited < 100_000 else { fatalError("some apps got no route change") }
        }
        return arrivals.withLock { $0.max() ?? 0 }
    }

    /// `event` (2), `notification` (0), a u64 sequence, `routeChange` (2): docs/protocol.md.
    static func isRouteChange(_ payload: [UInt8]) -> Bool {
        payload.count > 10 && payload[0] == 2 && payload[1] == 0 && payload[10] == 2
    }

    /// Sends a message and reads the one-frame answer (set-up only; nothing else is in flight).
    private static func exchange(_ fd: Int32, _ message: ClientMessage) throws {
        var socket = FramedSocket(fd: fd, bufferSize: 4096)
        try socket.send(message)
        _ = try socket.receivePayload()
    }

    func reset() { arrivals.withLock { $0 = [UInt64](repeating: 0, count: $0.count) } }

    private func run(_ clock: @Sendable () -> UInt64) {
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let ready = poll(&polled, nfds_t(polled.count), -1)
            guard ready > 0 else { continue }
            for index in polled.indices where polled[index].revents != 0 {
                polled[index].revents = 0
                let count = buffer.withUnsafeMutableBytes { read(fds[index], $0.baseAddress, $0.count) }
                guard count > 0 else {
                    polled[index].fd = -1  // closed: poll(2) skips it from now on, rather than spin
                    continue
                }
                let payloads = decoders.withLock { decoders -> [[UInt8]] in
                    decoders[index].append(buffer[0..<count])
                    var payloads: [[UInt8]] = []
                    while let payload = try? decoders[index].next() { payloads.append(payload) }
                    return payloads
                }
                // A route change is known by its first bytes (event, notification, sequence,
                // routeChange): the time is taken on arrival, as each app would in its own
                // process, not after this one thread has decoded a thousand of them in a row.
                for payload in payloads {
                    if Self.isRouteChange(payload) {
                        let time = clock()
                        arrivals.withLock { $0[index] = time }
                        if index == 0 { lastRouteChange.withLock { $0 = payload } }
                    }
                }
            }
        }
    }
}
