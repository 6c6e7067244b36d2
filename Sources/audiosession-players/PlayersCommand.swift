import ArgumentParser
import AudioSessionClient
import AudioSessionWire
import FoundationEssentials
import Logging

/// `audiosession-players`: one per user session. Parsing and wiring only (`Bridge`).
@main
struct PlayersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession-players",
        abstract: "MPRIS players on the session bus as apps of the audio session daemon (SPEC §16).",
        discussion: """
            Watches the session bus (DBUS_SESSION_BUS_ADDRESS) for org.mpris.MediaPlayer2.* players and holds one app \
            connection per player: a player that plays is an app that activates; an interruption pauses it, and its \
            end with should-resume plays it again if nobody touched it meanwhile. The daemon counts the player's \
            sound-server streams as that app's own. Runs until stopped; the bus or the daemon going away is waited out.
            """)

    @Option(help: "The daemon's socket (default: AUDIOSESSION_SOCKET, then $XDG_RUNTIME_DIR/audiosession/socket).")
    var socket: String?

    @Option(help: "Log level (default info).")
    var logLevel: Logger.Level = .info

    func run() throws {
        let path =
            socket ?? ProcessInfo.processInfo.environment[SocketLocation.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? SocketLocation.defaultPath
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "audiosession-players")
        logger.info("starting", metadata: ["socket": "\(path)"])
        Bridge(transport: .daemon(socketPath: path), logger: logger).run()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
