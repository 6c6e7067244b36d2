import AudioSession
import AudioSessionRuntime
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import PulseBackend

/// D1 (issue 38): thousands of ducks and unducks of a program's stream on a real server with its
/// stream restore on, while the user changes the stream's volume now and then (also while it is
/// ducked) and the program starts its stream again now and then (also while ducked): after every
/// unduck the stream is at its own volume — the program's, or the last the user set — never
/// left ducked, never ducked twice. pulse-bench lost an unduck in 3 runs of 4 before the fix
/// (`WrittenVolumes`: a report older than our last write was taken for the user's volume).
///
/// The user's change is heard by the daemon before the next duck or unduck: a change the daemon
/// has not read yet when it writes is overwritten by the server (last writer wins), and no one
/// can keep it — that is a change made at the same moment, not this test's case. Under load the
/// test's own connection heard the change first, and 1 round in 400 lost it so (issue 47).
@Suite("D1: thousands of ducks, not one unduck lost", .serialized)
struct UnduckSoakTests {
    static let rounds = 2_000

    @Test(
        "D1, OA6: 2,000 ducks and unducks; the user's volume changes and the program's restarts in between",
        arguments: ServerKind.allCases)
    func noUnduckLost(_ kind: ServerKind) throws {
        let server = try PulseFixture(kind)
        defer { server.stop() }
        let watch = try VolumeWatch(server: server.server, role: "music")
        defer { watch.close() }
        let arbiter = try Arbiter(configuration: .init(profile: .desktop, duckLevel: 0.2), logger: RealServerTests.quiet)
        // The backend's debug log, its last lines shown on a failure (a lost unduck was seen once in
        // 4,000 rounds with a build beside the tests: which report was taken for the stream's own).
        let log = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let backend = PulseBackend(arbiter: arbiter, server: server.server, logger: logger)
        defer { backend.close() }
        var player = try server.play(role: "music", application: "music")
        defer { PulseFixture.end(player) }
        guard var own = watch.waitFor({ $0 > 0 }) else { throw PulseFixture.StartError(description: "no stream") }
        let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
        defer { navigation.close() }
        try navigation.setCategory(.playback, options: .duckOthers)
        var failures: [String] = []
        var userLevel = 90
        /// The user sets the stream's volume (a mixer): its own from now on.
        func userSetsVolume() throws {
            userLevel = userLevel == 50 ? 90 : userLevel - 10
            let before = watch.volume
            try server.pactl(["set-sink-input-volume", "\(watch.index)", "\(userLevel)%"])
            guard let set = watch.waitFor({ $0 != before }) else { return failures.append("the user's volume not seen") }
            own = set
            let index = watch.index
            guard watch.waitFor({ _ in backend.ownVolume(ofForeign: index) == set }) != nil else {
                return failures.append(
                    "the daemon never heard the user's \(set): own \(backend.ownVolume(ofForeign: index) ?? 0)")
            }
        }
        /// The program ends its stream and starts a new one.
        func restart() throws {
            let before = watch.index
            PulseFixture.end(player)
            player = try server.play(role: "music", application: "music")
            guard watch.waitFor({ _ in watch.index != before }) != nil, watch.waitFor({ $0 > 0 }) != nil else {
                return failures.append("the program's new stream not seen")
            }
        }
        for round in 0..<Self.rounds where failures.count < 5 {
            if round % 100 == 50 { try userSetsVolume() }
            if round % 250 == 100 { try restart() }
            try navigation.setActive(true)
            // Ducked once, to the duck level of its own volume (±2 for the servers' rounding). (A
            // duck that crosses the user's change on the way may land from the volume before it
            // for a moment: the report of the change, older than the duck, corrects it.)
            let expected = Double(own) * pow(0.2, 1.0 / 3.0)  // a volume is the cube root of its amplitude
            guard watch.waitFor({ abs(Double($0) - expected) <= 2 }) != nil else {
                failures.append("round \(round): ducked to \(watch.volume ?? 0), not \(Int(expected)) (own \(own))")
                continue
            }
            if round % 100 == 75 { try userSetsVolume() }  // while ducked: what the user chose to hear wins
            if round % 250 == 200 { try restart() }  // while ducked: the new stream is ducked once, from its own
            try navigation.setActive(false)
            if watch.waitFor({ $0 == own }) == nil {
                failures.append("round \(round): left at \(watch.volume ?? 0), its own is \(own)")
            }
        }
        let trail = log.entries.suffix(12).map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(failures.isEmpty, "\(kind): \(failures)\nthe backend's last words:\n\(trail)")
    }
}

/// The server's account of the newest stream of a media role, as a separate connection hears it.
final class VolumeWatch: Sendable {
    private struct Seen {
        var index: UInt32 = 0
        var volume: UInt32?
        var changes = 0
    }

    private final class Shared: Sendable {
        let seen = Mutex(Seen())
    }

    private let shared = Shared()
    private let server: PulseServer

    init(server address: String, role: String) throws {
        let shared = self.shared
        server = try PulseServer(server: address) { event in
            guard case .streamPresent(let stream) = event, stream.isForeign, !stream.isRecord,
                stream.properties["media.role"] == role
            else { return }
            shared.seen.withLock { seen in
                if stream.index >= seen.index, stream.volume != seen.volume || stream.index != seen.index {
                    (seen.index, seen.volume) = (stream.index, stream.volume)
                    seen.changes += 1
                }
            }
        }
    }

    var index: UInt32 { shared.seen.withLock { $0.index } }
    var volume: UInt32? { shared.seen.withLock { $0.volume } }
    var changes: Int { shared.seen.withLock { $0.changes } }

    /// Polls (every 100 µs, at most 5 s) until `condition` holds of the volume (0: not known);
    /// returns it then.
    func waitFor(_ condition: (UInt32) -> Bool) -> UInt32? {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let volume = self.volume ?? 0
            if condition(volume) { return volume }
            usleep(100)
        }
        return nil
    }

    func close() { server.close() }
}
