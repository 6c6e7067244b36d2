import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Logging

// The arbiter without sockets: 1,000 apps connected with sinks that encode (or drop) what they
// are handed, and a controller that plugs and unplugs headphones. Timed by main.swift; counted in
// instructions by scripts/benchmark (`daemon-bench --arbiter-rounds N` under callgrind), which
// tells a real change of the work under the lock from this machine's noise.

/// Encodes each message and drops the bytes (the arbiter's work and the encoding).
struct EncodingSink: ConnectionSink {
    func send(_ message: ServerMessage) { _ = message.encoded() }
    func close() {}
}

/// Drops each message (the arbiter's work under its lock alone).
struct DroppingSink: ConnectionSink {
    func send(_ message: ServerMessage) {}
    func close() {}
}

/// An arbiter with `apps` mixable playback apps connected through `sink`, and its controller.
func arbiterWithApps(_ apps: Int, sink: any ConnectionSink) throws -> (Arbiter, Arbiter.ConnectionID) {
    let arbiter = try Arbiter(configuration: .init(), logger: .init(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
    let system = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: sink).get()
    for index in 0..<apps {
        let app = try arbiter.connect(Hello(role: .app(AppID("app-\(index)"), [])), peer: .thisProcess, sink: sink).get()
        _ = arbiter.handle(.call(.setCategory(.playback, options: .mixWithOthers)), from: app)
    }
    return (arbiter, system)
}

/// The duration of each of `rounds` plugs and unplugs, alternately, in nanoseconds.
func plugUnplug(_ arbiter: Arbiter, from system: Arbiter.ConnectionID, rounds: Int) -> [UInt64] {
    var times: [UInt64] = []
    times.reserveCapacity(rounds)
    for round in 0..<rounds {
        let start = now()
        _ = arbiter.handle(round % 2 == 0 ? .system(.plug(.headphones, uid: "h")) : .system(.unplug(uid: "h")), from: system)
        times.append(now() - start)
    }
    return times
}
