import ArgumentParser
import AudioSession
import AudioSessionWire
import Foundation

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
        let server: PageServer
        do {
            server = try await PageServer(host: host, port: port, routes: Self.routes(feed: feed, link: link))
        } catch {
            FileHandle.standardError.write(Data("audiosession live: cannot serve on \(host):\(port): \(error)\n".utf8))
            link.close()
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data("audiosession live: http://\(host):\(server.port)/ (daemon \(path))\n".utf8))
        // Signals are ours: the first ends the pages' streams, then the server stops (it waits
        // for the answers under way, and there is none left).
        let stopper = Stopper(feed: feed, server: server)
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
        try await server.run()
        link.close()
        news.continuation.finish()
        await pump
        if stopper.reason == .daemonGone { throw ExitCode(1) }
    }

    static func routes(feed: EventFeed, link: DaemonLink) -> [String: PageServer.Route] {
        [
            "/": { _ in .whole(.ok, type: "text/html; charset=utf-8", body: Page.html) },
            "/state": { _ in
                let (snapshot, goneSince) = link.snapshot()
                guard let snapshot, let json = try? Snapshot.json(snapshot, daemonGoneSince: goneSince) else {
                    return .whole(.serviceUnavailable, type: "text/plain", body: "no state from the daemon yet\n")
                }
                return .whole(.ok, type: "application/json", body: String(decoding: json, as: UTF8.self))
            },
            "/history": { _ in .whole(.ok, type: "application/json", body: await feed.historyJSON()) },
            // `?for=SECONDS` ends the stream after that long (a headless browser's page load must end);
            // `?after=SEQUENCE` first sends the kept events after the last one the page read in /history.
            "/events": { request in
                let (stream, id) = await feed.subscribe(after: request.query["after"].flatMap { UInt64($0) })
                if let seconds = request.query["for"].flatMap({ Double($0) }), seconds > 0 {
                    Task {
                        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                        await feed.end(id)
                    }
                }
                return .stream(type: "text/event-stream", stream) { await feed.unsubscribe(id) }
            },
        ]
    }
}
