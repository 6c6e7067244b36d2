import ArgumentParser
import AudioSessionClient
import AudioSessionWire
import FoundationEssentials
import Scenarios

#if canImport(Glibc)
import Glibc
#endif

/// `--socket PATH`, shared by the commands that talk to a running daemon.
struct DaemonOptions: ParsableArguments {
    @Option(
        help:
            "The daemon's socket (default $AUDIOSESSION_SOCKET, else $XDG_RUNTIME_DIR/audiosession/socket, else /run/audiosession/socket)."
    )
    var socket: String?

    var path: String {
        if let socket { return socket }
        if let fromEnvironment = ProcessInfo.processInfo.environment[SocketLocation.environmentVariable], !fromEnvironment.isEmpty
        {
            return fromEnvironment
        }
        return SocketLocation.clientPath
    }

    /// Connects, or exits 2 with the reason.
    func connect(
        as role: SystemController.Role, onEvent: @escaping @Sendable (ServerEvent) -> Void = { _ in }
    ) throws -> SystemController {
        do {
            return try SystemController(transport: .daemon(socketPath: path), role: role, onEvent: onEvent)
        } catch {
            printError("audiosession: \(error.message)")
            throw ExitCode(2)
        }
    }
}

extension AudioSessionCommand {
    /// `audiosession status`: the device, the routing owner and every connected app.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a running daemon's device, routing owner, apps, sessions, gains and routes.")

        @OptionGroup var daemon: DaemonOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let controller = try daemon.connect(as: .monitor)
            let snapshot: DeviceSnapshot
            do { snapshot = try controller.snapshot() } catch {
                printError("audiosession: \(error.message)")
                throw ExitCode(1)
            }
            print(json ? StatusPrinter.json(snapshot) : StatusPrinter.text(snapshot))
        }
    }

    /// `audiosession events`: every notification to every app, live, one line each.
    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every notification a running daemon sends, live: time, app, notification.")

        @OptionGroup var daemon: DaemonOptions

        func run() async throws {
            let (stream, continuation) = AsyncStream<String>.makeStream()
            let controller = try daemon.connect(as: .monitor) { event in
                if case .observed(_, let time, let app, let notification) = event {
                    continuation.yield("\(StatusPrinter.time(time)) \(app) \(notification)")
                }
            }
            do { try controller.subscribe() } catch {
                printError("audiosession: \(error.message)")
                throw ExitCode(1)
            }
            let lost = Task.detached {
                // The connection ending (daemon stopped) ends the command.
                while (try? controller.waitForPendingEvents()) != nil { try? await Task.sleep(for: .milliseconds(500)) }
                continuation.finish()
            }
            for await line in stream {
                print(line)
                fflush(nil)
            }
            lost.cancel()
            printError("audiosession: the daemon went away")
            throw ExitCode(1)
        }
    }

    /// `audiosession system VERB ...`: a system step of SCENARIOS.md, a permission answer, or an
    /// app's foreground/background state set by the device's shell.
    struct System: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Send a system event to a running daemon (needs a system controller: root or the daemon's user, or a configured controller).",
            discussion: """
                VERB as in scenario files: plug KIND [uid=UID], unplug UID, silent on|off, lock, unlock, \
                call|alarm|siri begin|end, mic-mute on|off, volume V, input-gain UID G, wake, media-services reset. \
                Also: answer APP grant|deny (the user's answer to a record-permission prompt), and \
                app-state APP foreground|background (the device's shell moves an app; in the system trust \
                mode the only way an app's state changes).
                """)

        @OptionGroup var daemon: DaemonOptions

        @Argument(help: "The verb and its arguments.")
        var words: [String]

        /// What the words ask for.
        enum Action {
            case event(SystemEvent)
            case answer(AppID, granted: Bool)
            case appState(AppID, AppState)
        }

        func validate() throws { _ = try action() }

        func action() throws -> Action {
            guard let verb = words.first else { throw ValidationError("give a verb, e.g. `system plug headphones`") }
            switch verb {
            case "answer":
                guard words.count == 3, ["grant", "deny"].contains(words[2]) else {
                    throw ValidationError("use `system answer APP grant|deny`")
                }
                return .answer(AppID(words[1]), granted: words[2] == "grant")
            case "app-state":
                guard words.count == 3, ["foreground", "background"].contains(words[2]) else {
                    throw ValidationError("use `system app-state APP foreground|background`")
                }
                return .appState(AppID(words[1]), words[2] == "foreground" ? .foreground : .background)
            default:
                do {
                    return .event(try SystemEvent(parsing: words.joined(separator: " ")))
                } catch {
                    throw ValidationError("\(error.description)")
                }
            }
        }

        func run() throws {
            let controller = try daemon.connect(as: .controller)
            do {
                switch try action() {
                case .event(let event): try controller.perform(event)
                case .answer(let app, let granted): try controller.answerRecordPermission(for: app, granted: granted)
                case .appState(let app, let state): try controller.setAppState(of: app, state)
                }
            } catch let error as SessionError {
                printError("audiosession: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
