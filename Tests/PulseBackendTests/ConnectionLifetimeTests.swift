import Foundation
import PulseBackend
import Synchronization
import Testing

/// A connection dropped while the server's answers are on their way: the answer that carried the
/// last reference ends the connection on libpulse's own thread, where the loop cannot be stopped
/// (libpulse asserted, and the daemon or the tests aborted: the backend's close, then the PipeWire
/// poll's answer, once in a full run).
@Suite("A connection dropped with answers in flight", .serialized)
struct ConnectionLifetimeTests {
    @Test(
        "Dropped right after asking, over and over: no crash, and the server serves the next one", arguments: ServerKind.allCases)
    func droppedWhileAsking(_ kind: ServerKind) throws {
        let pulse = try PulseFixture(kind)
        defer { pulse.stop() }
        let player = try pulse.play(role: "music")
        defer { PulseFixture.end(player) }
        let threadsBefore = Self.threads()
        for _ in 0..<40 {
            var server: PulseServer? = try PulseServer(server: pulse.server) { _ in }
            server?.listStreamsAgain()  // each answer holds the connection (its stream infos)
            server?.askDefaults()
            server = nil  // the answers, not this thread, let it go
        }
        // Each dropped connection's loop thread is stopped and gone, wherever its last reference went.
        #expect(eventually { Self.threads() < threadsBefore + 10 }, "\(kind): \(Self.threads()) threads, \(threadsBefore) before")
        let seen = Mutex(0)
        let last = try PulseServer(server: pulse.server) { event in
            if case .streamPresent = event { seen.withLock { $0 += 1 } }
        }
        defer { last.close() }
        #expect(seen.withLock { $0 } >= 1, "\(kind): the server still answers a new connection")
    }

    /// libpulse drops a request without a word when its server goes away, so an answer that held
    /// the connection never came to let it go: the daemon kept one connection's loop thread and
    /// descriptors per server death that caught a request on its way (FlappingServerTests on
    /// PipeWire, 1 run in ~14: 3 descriptors and a thread more after ten kills).
    @Test(
        "MS3: a server gone with answers on their way: closed, the connection goes (its thread and descriptors with it)",
        arguments: ServerKind.allCases)
    func goneWithAnswersOwed(_ kind: ServerKind) throws {
        let pulse = try PulseFixture(kind)
        defer { pulse.stop() }
        let lost = Mutex(false)
        var server: PulseServer? = try PulseServer(server: pulse.server) { event in
            if case .lost = event { lost.withLock { $0 = true } }
        }
        weak let dropped = server
        kill(-pulse.pid, SIGSTOP)  // asked now, answered never
        server?.listStreamsAgain()
        server?.askAgain(stream: 0)
        pulse.crash()
        #expect(eventually { lost.withLock { $0 } }, "\(kind): the loss was not told")
        server?.close()
        server = nil
        #expect(eventually { dropped == nil }, "\(kind): the closed connection is still held by the answers it waited for")
    }

    /// A daemon stopping as its server stops (a session ending, a script's teardown) waits for the
    /// server's word that our changes were undone; the wait went on to its timeout (5 s) after the
    /// connection had failed, and the daemon outlived its SIGTERM (the demo's teardown killed it).
    @Test("OA6: waiting for the server's word ends when the server goes away, not at the timeout", arguments: ServerKind.allCases)
    func waitEndsWithTheServer(_ kind: ServerKind) throws {
        let pulse = try PulseFixture(kind)
        defer { pulse.stop() }
        let server = try PulseServer(server: pulse.server) { _ in }
        defer { server.close() }
        kill(-pulse.pid, SIGSTOP)  // the question is asked, and not answered
        let answered = Mutex<Bool?>(nil)
        let waiter = Thread {
            let confirmed = server.flush(timeout: 60)  // not inside the lock: the test reads it meanwhile
            answered.withLock { $0 = confirmed }
        }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(answered.withLock { $0 } == nil, "\(kind): a stopped server answered")
        pulse.crash()
        #expect(
            eventually(within: 20) { answered.withLock { $0 } != nil }, "\(kind): still waiting 20 s after the server went away")
        #expect(answered.withLock { $0 } == false, "\(kind): a server gone was taken for one that answered")
    }

    private static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
