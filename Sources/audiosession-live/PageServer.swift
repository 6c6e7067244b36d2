import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The live view's HTTP server, on swift-nio's HTTP/1.1 codec (the daemon's own dependency: no
/// web framework to build beside it). It answers `GET` only, one request per connection
/// (`Connection: close`: a local page makes a handful), each either whole or as a stream of text
/// that ends when its stream does (server-sent events).
///
/// `shutdown()` stops it gracefully: no new connection is taken, a connection that has not asked
/// anything yet is closed, and `run()` returns once the answers under way have ended — so the
/// caller ends every stream first (`EventFeed.stopAll`), and nothing is left to wait for.
final class PageServer: Sendable {
    struct Request: Sendable {
        let path: String
        /// The query's `name=value` pairs (the last one of a name wins).
        let query: [String: String]
    }

    enum Answer: Sendable {
        case whole(HTTPResponseStatus, type: String, body: String)
        /// Written as it comes; `ended` is called once it has ended, or the page went away.
        case stream(type: String, AsyncStream<String>, ended: @Sendable () async -> Void)
    }

    typealias Route = @Sendable (Request) async -> Answer

    private struct Connections {
        var waiting: [ObjectIdentifier: any Channel] = [:]
        var stopping = false
    }

    private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let routes: [String: Route]
    private let connections = Mutex(Connections())

    /// The port it listens on (the one asked, or the one the system gave for 0).
    var port: Int { server.channel.localAddress?.port ?? 0 }

    /// Listens on `host`:`port` (0: any free port); `routes` by path.
    init(host: String, port: Int, routes: [String: Route]) async throws {
        self.routes = routes
        server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Serves until `shutdown()`, and until the answers under way then have ended.
    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await self.serve(connection) }
                }
            }
        }
    }

    /// Stops taking connections and closes those that have not asked anything yet.
    func shutdown() {
        let waiting = connections.withLock { connections in
            connections.stopping = true
            defer { connections.waiting = [:] }
            return Array(connections.waiting.values)
        }
        server.channel.close(promise: nil)
        for channel in waiting { channel.close(promise: nil) }
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        let key = ObjectIdentifier(connection.channel)
        let open = connections.withLock { connections in
            if !connections.stopping { connections.waiting[key] = connection.channel }
            return !connections.stopping
        }
        guard open else { return connection.channel.close(promise: nil) }
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                if case .head(let asked) = part {
                    head = asked
                    break
                }
            }
            guard let head, connections.withLock({ $0.waiting.removeValue(forKey: key) }) != nil else { return }
            try await answer(head, outbound)
        }
        _ = connections.withLock { $0.waiting.removeValue(forKey: key) }
    }

    private func answer(_ head: HTTPRequestHead, _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        let request = Self.request(head.uri)
        let answer: Answer
        if head.method != .GET {
            answer = .whole(.methodNotAllowed, type: "text/plain", body: "only GET is served\n")
        } else if let route = routes[request.path] {
            answer = await route(request)
        } else {
            answer = .whole(.notFound, type: "text/plain", body: "no page at \(request.path)\n")
        }
        var headers: HTTPHeaders = ["Cache-Control": "no-cache", "Connection": "close"]
        switch answer {
        case .whole(let status, let type, let body):
            let bytes = ByteBuffer(string: body)
            headers.add(name: "Content-Type", value: type)
            headers.add(name: "Content-Length", value: "\(bytes.readableBytes)")
            try await outbound.write(.head(HTTPResponseHead(version: head.version, status: status, headers: headers)))
            try await outbound.write(.body(.byteBuffer(bytes)))
            try await outbound.write(.end(nil))
        case .stream(let type, let stream, let ended):
            headers.add(name: "Content-Type", value: type)  // no length: sent in chunks as it comes
            do {
                try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers)))
                for await text in stream { try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text)))) }
                try await outbound.write(.end(nil))
            } catch {
                await ended()
                throw error
            }
            await ended()
        }
    }

    /// The path and query of a request's target (`/events?after=3&for=0.5`); percent escapes in
    /// the query's values are undone.
    static func request(_ target: String) -> Request {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = nameAndValue.count > 1 ? String(nameAndValue[1]) : ""
            query[String(nameAndValue[0])] = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
        }
        return Request(path: String(parts.first ?? "/"), query: query)
    }
}
