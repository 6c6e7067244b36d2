import ArgumentParser
import AudioSession
import AudioSessionWire
import Foundation
import Hummingbird

/// `audiosession live` (the `audiosession` command runs this binary): connects to a running
/// daemon as a monitor and serves a local web page of it — the device, the routing owner, every
/// app's category, mode, options, state and gain, the route, other audio — with a timeline of
/// the notifications as they happen, pushed to the page with server-sent events.
@main
struct Live: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession live",
        abstract: "Serve a live web page of a running daemon: device, apps, routes and a timeline of events.")

    @Option(help: "The daemon's socket (default $AUDIOSESSION_SOCKET, else $XDG_RUNTIME_DIR/audiosession/socket).")
    var socket: String?

    @Option(help: "The port to serve on (0: any free one; the address is printed).")
    var port = 8042

    @Option(help: "The address to serve on. The default is loopback only: the page shows every app's pid and uid.")
    var host = "127.0.0.1"

    func run() async throws {
        let path =
            socket ?? ProcessInfo.processInfo.environment["AUDIOSESSION_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? SocketLocation.clientPath
        let feed = EventFeed()
        let events = AsyncStream<ServerEvent>.makeStream()
        let controller: SystemController
        do {
            controller = try SystemController(transport: .daemon(socketPath: path), role: .monitor) { event in
                events.continuation.yield(event)  // in the daemon's order, on the controller's queue
            }
            try controller.subscribe()
        } catch {
            FileHandle.standardError.write(Data("audiosession live: \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let router = Router()
        router.get("/") { _, _ in Self.response(Page.html, type: "text/html; charset=utf-8") }
        router.get("/state") { _, _ in
            Self.response(String(decoding: try Snapshot.json(controller.snapshot()), as: UTF8.self), type: "application/json")
        }
        router.get("/history") { _, _ in
            Self.response(await feed.historyJSON(), type: "application/json")
        }
        // `?for=SECONDS` ends the stream after that long (a headless browser's page load must end).
        router.get("/events") { request, _ in
            let (stream, id) = await feed.subscribe()
            if let seconds = request.uri.queryParameters.get("for", as: Double.self), seconds > 0 {
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    await feed.end(id)
                }
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    do {
                        try await writer.write(ByteBuffer(string: "retry: 3600000\n: connected\n\n"))
                        for await line in stream { try await writer.write(ByteBuffer(string: "data: \(line)\n\n")) }
                    } catch {
                        await feed.unsubscribe(id)  // the page went away
                        throw error
                    }
                    await feed.unsubscribe(id)
                    try await writer.finish(nil)
                })
        }
        let host = host
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let line = "audiosession live: http://\(host):\(channel.localAddress?.port ?? 0)/ (daemon \(path))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
        async let pump: Void = {
            for await event in events.stream {
                if case .observed(let sequence, let time, let app, let notification) = event {
                    await feed.add(sequence: sequence, time: time, app: app, text: "\(notification)")
                }
            }
        }()
        try await app.runService()
        events.continuation.finish()
        await pump
    }

    static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The events seen so far (the last 500) and the pages listening for the next ones.
actor EventFeed {
    private var history: [String] = []
    private var listeners: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextListener = 0

    func add(sequence: UInt64, time: UInt64, app: AppID, text: String) {
        let received = UInt64(Date().timeIntervalSince1970 * 1000)
        let event: [String: Any] = [
            "sequence": sequence, "time": time / 1_000_000, "received": received, "app": app.rawValue, "text": text,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else { return }
        let line = String(decoding: data, as: UTF8.self)
        history.append(line)
        if history.count > 500 { history.removeFirst(history.count - 500) }
        for listener in listeners.values { listener.yield(line) }
    }

    func historyJSON() -> String { "[" + history.joined(separator: ",") + "]" }

    func subscribe() -> (AsyncStream<String>, Int) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(500))
        nextListener += 1
        listeners[nextListener] = continuation
        return (stream, nextListener)
    }

    func unsubscribe(_ id: Int) { listeners[id] = nil }

    /// Ends one page's stream.
    func end(_ id: Int) { listeners.removeValue(forKey: id)?.finish() }
}
