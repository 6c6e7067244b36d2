import ArgumentParser
import FoundationEssentials

/// `audiosession live`: a local web page of a running daemon, served by `audiosession-live` (a
/// binary of its own, so that no HTTP server is in the daemon or the command).
struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a live web page of a running daemon: device, apps, routes and a timeline of events.",
        discussion: """
            Runs audiosession-live (built by `swift build` beside this command). It connects as a \
            monitor and serves http://127.0.0.1:8042/ (loopback only unless --host says otherwise: the page \
            shows every app's pid and uid); events are pushed to the page as they happen.
            """)

    @Option(help: "The daemon's socket (default $AUDIOSESSION_SOCKET, else $XDG_RUNTIME_DIR/audiosession/socket).")
    var socket: String?

    @Option(help: "The port to serve on (0: any free one; the address is printed).")
    var port = 8042

    @Option(help: "The address to serve on (default 127.0.0.1, loopback only).")
    var host = "127.0.0.1"

    @Flag(help: "Exit (status 1) when the daemon goes away, instead of showing its last state until it is back.")
    var exitWithDaemon = false

    func run() throws {
        guard let tool = ExternalTool.find("audiosession-live") else {
            printError(
                """
                audiosession live: audiosession-live is neither beside this command nor on PATH; build it with
                  swift build --product audiosession-live
                """)
            throw ExitCode(2)
        }
        ExternalTool.exec(
            tool,
            (socket.map { ["--socket", $0] } ?? []) + ["--port", "\(port)", "--host", host]
                + (exitWithDaemon ? ["--exit-with-daemon"] : []))
    }
}
