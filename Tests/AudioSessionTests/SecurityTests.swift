import AudioSession
import AudioSessionDaemon
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Who may do what, and bad bytes on the socket.
@Suite("Identity, privilege and malformed frames", .serialized)
struct SecurityTests {
    @Test("System events need a system controller from root or the daemon's user: ent? otherwise, nothing changes")
    func systemEventsNeedAController() throws {
        let log = LogCapture()
        let arbiter = try Arbiter(configuration: .init(), logger: log.logger)
        let me = PeerCredentials.thisProcess
        let stranger = PeerCredentials(pid: 4242, uid: me.uid == 0 ? 54321 : 0, gid: 54321)
        let sink = NullSink()
        let app = try arbiter.connect(Hello(role: .app("music", [])), peer: me, sink: sink).get()
        let monitor = try arbiter.connect(Hello(role: .monitor), peer: me, sink: sink).get()
        let foreignController = try arbiter.connect(Hello(role: .controller), peer: stranger, sink: sink).get()
        let before = arbiter.engine
        for (connection, role, peer) in [(app, "app", me), (monitor, "monitor", me), (foreignController, "controller", stranger)]
        {
            for request in [
                Request.system(.lock), .system(.plug(.headphones)), .answerPermission("music", granted: true),
                .reset(.desktop, duckLevel: 0.5),
            ] {
                guard case .failed(let error) = arbiter.handle(request, from: connection) else {
                    Issue.record("\(request) was accepted from \(connection)")
                    continue
                }
                #expect(error.code == .missingEntitlement)
                // Logged with the reason, the role and who asked.
                #expect(log.warned("needs a system controller", "role=\(role)", "peer=\(peer)"))
            }
        }
        #expect(arbiter.engine == before)
        let controller = try arbiter.connect(Hello(role: .controller), peer: me, sink: sink).get()
        #expect(arbiter.handle(.system(.lock), from: controller) == .done)
    }

    @Test("An app addresses only its own session: no request names another app's session")
    func appsAddressOnlyThemselves() throws {
        let log = LogCapture()
        let arbiter = try Arbiter(configuration: .init(), logger: log.logger)
        let music = try arbiter.connect(Hello(role: .app("music", [])), peer: .thisProcess, sink: NullSink()).get()
        _ = try arbiter.connect(Hello(role: .app("maps", [])), peer: .thisProcess, sink: NullSink()).get()
        #expect(arbiter.handle(.call(.setActive(true)), from: music) == .done)
        #expect(arbiter.engine.activeApps == ["music"])
        guard case .status(let status) = arbiter.handle(.status, from: music) else {
            Issue.record("no status")
            return
        }
        #expect(status.app == "music")
        // The device view and the event feed are for controllers and monitors only.
        guard case .failed(let error) = arbiter.handle(.deviceStatus, from: music) else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .missingEntitlement)
        #expect(log.warned("needs a system controller", "request=device status", "role=app"))
        #expect(arbiter.engine.activeApps == ["music"])  // nothing changed
    }

    @Test("A malformed or oversized frame gets an error and a closed connection; other clients go on")
    func malformedFrames() async throws {
        let log = LogCapture()
        var limits = DaemonLimits()
        limits.warningInterval = 0  // every warning logged (BoundsTests checks the rate limit)
        let fixture = try await SocketFixture.start(logger: log.logger, limits: limits)
        defer { Task { await fixture.stop() } }
        let bystander = AudioSession(appID: "music", transport: fixture.transport)
        try bystander.setCategory(.playback)
        let garbage: [[UInt8]] = [
            [0, 0, 0, 3, 9, 9, 9],  // unknown message tag
            [0x7F, 0xFF, 0xFF, 0xFF],  // a frame announced at 2 GiB
            Frame.encode(ClientMessage.request(id: 1, .status).encoded()),  // a request before the hello
            Frame.encode([0, 0, 1, 0]),  // a truncated hello
        ]
        for bytes in garbage {
            let reply = try RawClient(fixture.socketPath).exchange(bytes)
            guard case .closing(let error) = reply.message else {
                Issue.record("got \(String(describing: reply.message))")
                return
            }
            #expect(error.code == .badParam)
            #expect(error.message.hasPrefix("malformed frame"))
            #expect(reply.closedAfterwards)
        }
        #expect(log.warned("malformed frame; closing the connection", "oversized"))
        #expect(log.warned("malformed frame; closing the connection", "a request before the hello"))
        try bystander.setActive(true)
        #expect(try bystander.status().isActive)
        bystander.close()
    }
}

/// A sink that drops everything.
struct NullSink: ConnectionSink {
    func send(_ message: ServerMessage) {}
    func close() {}
}

/// A bare socket client for sending arbitrary bytes.
struct RawClient {
    let fd: Int32

    init(_ path: String) throws {
        fd = try UnixSocket.connect(to: path).get()
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends the bytes, reads one message, then whether the daemon closed the connection.
    func exchange(_ bytes: [UInt8]) throws -> (message: ServerMessage?, closedAfterwards: Bool) {
        defer { close(fd) }
        var socket = FramedSocket(fd: fd, bufferSize: 4096)
        try socket.send(raw: bytes)
        var message: ServerMessage?
        while true {
            if message == nil, let payload = try socket.bufferedPayload() { message = try ServerMessage(decoding: payload) }
            do {
                try socket.fill()
            } catch .closed {
                return (message, true)
            } catch {
                return (message, false)
            }
        }
    }
}

@Suite("A client that stops reading", .serialized)
struct SlowConsumerTests {
    @Test("A subscriber that never reads is closed past 1 MiB unsent; the daemon and other clients go on")
    func slowConsumerIsClosed() async throws {
        let fixture = try await SocketFixture.start()
        defer { Task { await fixture.stop() } }
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: fixture.transport)
        try music.setCategory(.playback)
        try music.setActive(true)
        let controller = try SystemController(transport: fixture.transport)

        // A monitor that subscribes and then never reads again.
        let stalled = try UnixSocket.connect(to: fixture.socketPath).get()
        defer { close(stalled) }
        var small: Int32 = 4096
        setsockopt(stalled, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        for message in [ClientMessage.hello(Hello(role: .monitor)), .request(id: 1, .subscribe)] {
            try FramedSocket(fd: stalled, bufferSize: 16).send(message)
        }
        #expect(fixture.arbiter.engine.apps == ["music"])

        // Every plug and unplug sends the subscriber an observed route change (~150 bytes).
        for round in 0..<12_000 {
            try controller.perform(round % 2 == 0 ? .plug(.headphones, uid: "h") : .unplug(uid: "h"))
        }
        // The daemon kept answering, and the app still works.
        try music.setActive(false)
        #expect(try !music.status().isActive)
        // The stalled connection was closed: what the kernel buffered, then the end.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(stalled, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var total = 0
        var sawEnd = false
        while total < 4 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(stalled, $0.baseAddress, $0.count) }
            if count == 0 {
                sawEnd = true
                break
            }
            guard count > 0 else { break }
            total += count
        }
        #expect(sawEnd, "the daemon closed the connection after \(total) bytes")
        #expect(total < 1 << 20)  // far less than the 12,000 route changes it was sent
        music.close()
        controller.close()
    }
}
