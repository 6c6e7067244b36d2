import Foundation
import Testing

@testable import audiosession_live

/// The live view's HTTP server (swift-nio's HTTP/1.1 codec) as a client on a socket sees it,
/// before the browser test (scripts/test-live): answers whole and streamed, the query, errors, and
/// a graceful stop with a page streaming and a connection that never asked anything.
@Suite("The live view's HTTP server")
struct PageServerTests {
    /// A plain TCP client: connects, writes `request` (unless nil), reads until the server closes.
    final class Client: @unchecked Sendable {
        let socket: Int32

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(socket) }

        func send(_ text: String) { _ = text.withCString { Glibc.write(socket, $0, strlen($0)) } }

        /// Everything until the server closes the connection (or 10 s pass).
        func readAll() -> String {
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let got = Glibc.read(socket, &buffer, buffer.count)
                if got <= 0 { break }
                data.append(contentsOf: buffer[0..<got])
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Reads until `text` has arrived; what came.
        func read(until text: String) -> String {
            var seen = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !seen.contains(text) {
                let got = Glibc.read(socket, &buffer, buffer.count)
                if got <= 0 { break }
                seen += String(decoding: buffer[0..<got], as: UTF8.self)
            }
            return seen
        }
    }

    /// Runs a blocking read off Swift's cooperative threads (two on this machine: two tests each
    /// blocked in `read` there left none for the server's own tasks, and nothing was answered).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Whether `task` ended within `seconds` (a server that never stops fails the test, not hangs it).
    static func ended(_ task: Task<Void, any Error>, within seconds: Int) async -> Bool {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        Task {
            _ = try? await task.value
            continuation.yield(true)
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            continuation.yield(false)
        }
        var first = stream.makeAsyncIterator()
        return await first.next() ?? false
    }

    static func get(_ target: String, port: Int, method: String = "GET") throws -> String {
        let client = try Client(port: port)
        client.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return client.readAll()
    }

    @Test("A whole answer has its status, type, length and Connection: close; the query is read; 404 and 405 say why")
    func wholeAnswers() async throws {
        let asked = AsyncStream<PageServer.Request>.makeStream()
        let server = try await PageServer(
            host: "127.0.0.1", port: 0,
            routes: [
                "/state": { request in
                    asked.continuation.yield(request)
                    return .whole(.ok, type: "application/json", body: "{\"a\":1}")
                }
            ])
        let running = Task { try await server.run() }
        let port = server.port
        #expect(port > 0)
        let answer = try await Self.blocking { try Self.get("/state?after=3&for=0.5&name=a%20b+c", port: port) }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
        #expect(answer.contains("Content-Type: application/json\r\n"), "\(answer)")
        #expect(answer.contains("Content-Length: 7\r\n"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close\r\n"), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\n{\"a\":1}"), "\(answer)")
        var requests = asked.stream.makeAsyncIterator()
        let request = await requests.next()
        #expect(request?.path == "/state")
        #expect(request?.query == ["after": "3", "for": "0.5", "name": "a b c"])
        let missing = try await Self.blocking { try Self.get("/nothing", port: port) }
        #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n") && missing.contains("no page at /nothing"), "\(missing)")
        let posted = try await Self.blocking { try Self.get("/state", port: port, method: "POST") }
        #expect(posted.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), "\(posted)")
        server.shutdown()
        #expect(await Self.ended(running, within: 5), "run() returned after shutdown()")
    }

    @Test("A streamed answer arrives as it is yielded; shutdown() closes a silent connection and returns once the stream ends")
    func streamAndGracefulStop() async throws {
        let texts = AsyncStream<String>.makeStream()
        let ended = AsyncStream<Void>.makeStream()
        let server = try await PageServer(
            host: "127.0.0.1", port: 0,
            routes: ["/events": { _ in .stream(type: "text/event-stream", texts.stream) { ended.continuation.yield() } }])
        let running = Task { try await server.run() }
        let port = server.port
        let page = try Client(port: port)
        page.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        texts.continuation.yield("data: one\n\n")
        let first = try await Self.blocking { page.read(until: "data: one") }
        #expect(first.contains("Content-Type: text/event-stream\r\n"), "\(first)")
        #expect(first.lowercased().contains("transfer-encoding: chunked\r\n"), "\(first)")
        #expect(first.contains("data: one"), "\(first)")
        let silent = try Client(port: port)  // connected, never asks
        try await Task.sleep(for: .milliseconds(100))
        let stopped = ContinuousClock.now
        server.shutdown()
        let silentSaw = try await Self.blocking { silent.readAll() }
        let waited = ContinuousClock.now - stopped
        #expect(silentSaw.isEmpty, "a connection that asked nothing was closed without an answer: \(silentSaw)")
        #expect(waited < .seconds(5), "closed at shutdown, not left to its client (the read gives up after 10 s): \(waited)")
        texts.continuation.yield("event: stopped\n\n")
        texts.continuation.finish()
        let rest = try await Self.blocking { page.readAll() }
        #expect(rest.contains("event: stopped") && rest.hasSuffix("0\r\n\r\n"), "the stream's last chunk, then its end: \(rest)")
        #expect(await Self.ended(running, within: 5), "run() returned once the last answer under way ended")
        ended.continuation.finish()  // what was told is kept; nothing more is waited for
        var endings = ended.stream.makeAsyncIterator()
        #expect(await endings.next() != nil, "the route was told its stream ended")
        #expect(throws: (any Error).self, "no connection is taken after shutdown") { try Client(port: port) }
    }
}
