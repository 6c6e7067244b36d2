import ArgumentParser
import AudioSession
import AudioSessionWire
import Foundation
import Hummingbird
import ServiceLifecycle

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

    @Flag(help: "Exit (status 1) when the daemon goes away, instead of showing its last state until it is back.")
    var exitWithDaemon = false

    func run() async throws {
        let path =
            socket ?? ProcessInfo.processInfo.environment["AUDIOSESSION_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? SocketLocation.clientPath
        let feed = EventFeed()
        let news = AsyncStream<DaemonLink.News>.makeStream()
        let link: DaemonLink
        do {
            link = try DaemonLink(path: path, news: news.continuation)
        } catch {
            FileHandle.standardError.write(Data("audiosession live: \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let host = host
        let app = Application(
            router: Self.router(feed: feed, link: link), configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let line = "audiosession live: http://\(host):\(channel.localAddress?.port ?? 0)/ (daemon \(path))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
        // Signals are ours, not the service group's: the first ends the pages' streams before
        // the server's graceful shutdown (which would otherwise wait for them forever).
        let group = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
        let stopper = Stopper(feed: feed, group: group)
        stopper.handleSignals()
        let exitWithDaemon = exitWithDaemon
        async let pump: Void = {
            for await item in news.stream {
                switch item {
                case .observed(let sequence, let time, let app, let text):
                    await feed.add(sequence: sequence, time: time, app: app, text: text)
                case .gone:
                    await feed.daemon("gone")
                    let message = exitWithDaemon ? "exiting (--exit-with-daemon)" : "showing its last state until it is back"
                    FileHandle.standardError.write(Data("audiosession live: the daemon went away (\(path)); \(message)\n".utf8))
                    if exitWithDaemon { stopper.stop(.daemonGone) }
                case .back:
                    await feed.daemon("back")
                    FileHandle.standardError.write(Data("audiosession live: the daemon is back (\(path))\n".utf8))
                }
            }
        }()
        try await group.run()
        link.close()
        news.continuation.finish()
        await pump
        if stopper.reason == .daemonGone { throw ExitCode(1) }
    }

    static func router(feed: EventFeed, link: DaemonLink) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in Self.response(Page.html, type: "text/html; charset=utf-8") }
        router.get("/state") { _, _ in
            let (snapshot, goneSince) = link.snapshot()
            guard let snapshot else { return Response(status: .serviceUnavailable) }
            return Self.response(
                String(decoding: try Snapshot.json(snapshot, daemonGoneSince: goneSince), as: UTF8.self),
                type: "application/json")
        }
        router.get("/history") { _, _ in
            Self.response(await feed.historyJSON(), type: "application/json")
        }
        // `?for=SECONDS` ends the stream after that long (a headless browser's page load must end);
        // `?after=SEQUENCE` first sends the kept events after the last one the page read in /history.
        router.get("/events") { request, _ in
            let (stream, id) = await feed.subscribe(after: request.uri.queryParameters.get("after", as: UInt64.self))
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
                        for await chunk in stream { try await writer.write(ByteBuffer(string: chunk)) }
                    } catch {
                        await feed.unsubscribe(id)  // the page went away
                        throw error
                    }
                    await feed.unsubscribe(id)
                    try await writer.finish(nil)
                })
        }
        return router
    }

    static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
