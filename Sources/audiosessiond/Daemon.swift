import ArgumentParser
import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import FoundationEssentials
import Logging
import PulseBackend
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// `audiosessiond`: the arbiter as a daemon on a Unix socket. Parsing and wiring only.
@main
struct Daemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessiond",
        abstract: "The audio session daemon: one arbiter for every app process, over a Unix socket.",
        discussion: """
            Apps connect with the AudioSession library (AUDIOSESSION_SOCKET=PATH) or the C API; \
            `audiosession status`, `events` and `system` watch and drive it. SIGTERM or SIGINT stops it \
            gracefully. Exit status: 0 after a graceful stop, 1 when it cannot start (the message says why).
            """
    )

    @Option(help: "The socket path (default $XDG_RUNTIME_DIR/audiosession/socket). Its directory must be mode 700.")
    var socket: String?

    @Option(help: "The device profile: its built-in ports (with --backend pulse too; default iphone, desktop with pulse).")
    var device: DeviceProfile?

    @Option(
        help:
            "Where the ports come from: simulated (the profile and `system plug`), or pulse (a PulseAudio server or PipeWire's pipewire-pulse: its sinks and sources)."
    )
    var backend: BackendKind = .simulated

    @Option(
        help:
            "The PulseAudio server for --backend pulse, e.g. unix:/run/user/1000/pulse/native (default: PULSE_SERVER, then the user's)."
    )
    var pulseServer: String?

    @Option(help: "The duck level (D1), 0…1.")
    var duckLevel: Double = 0.2

    @Option(help: "A directory where record permissions and the output volume persist (atomic writes).")
    var stateDir: String?

    @Option(help: "Who answers record-permission prompts: ask (system controllers), grant or deny.")
    var permissionPrompt: PermissionPolicy = .ask

    @Option(help: "Log level.")
    var logLevel: Logger.Level = .info

    @Option(help: "Seconds a connection has to say hello before it is closed.")
    var helloTimeout: Double = DaemonLimits().helloTimeout

    @Option(help: "Connections open at once, in all.")
    var maxConnections: Int = DaemonLimits().connections

    @Option(help: "Connections open at once per uid.")
    var maxConnectionsPerUid: Int = DaemonLimits().connectionsPerUID

    func validate() throws {
        if pulseServer != nil, backend != .pulse { throw ValidationError("--pulse-server needs --backend pulse") }
        guard (0...1).contains(duckLevel) else { throw ValidationError("--duck-level must be within 0…1, not \(duckLevel)") }
        guard helloTimeout > 0 else { throw ValidationError("--hello-timeout must be positive, not \(helloTimeout)") }
        guard maxConnections > 0, maxConnectionsPerUid > 0 else {
            throw ValidationError("--max-connections and --max-connections-per-uid must be at least 1")
        }
    }

    var limits: DaemonLimits {
        var limits = DaemonLimits()
        limits.helloTimeout = helloTimeout
        limits.connections = maxConnections
        limits.connectionsPerUID = maxConnectionsPerUid
        return limits
    }

    func run() async throws {
        var logger = Logger(label: "audiosessiond")
        logger.logLevel = logLevel
        let path = socket ?? SocketLocation.defaultPath
        do {
            let store = try stateDir.map { (dir: String) throws(StoreError) in try SettingsStore(directory: dir) }
            let arbiter = try Arbiter(
                configuration: .init(
                    profile: device ?? (backend == .pulse ? .desktop : .iphone),
                    duckLevel: duckLevel, store: store,
                    permissionPolicy: permissionPrompt,
                    now: { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) }),
                logger: logger)
            // The one door: the simulated device, or the sound server's backend.
            let pulse = backend == .pulse ? try PulseBackend(arbiter: arbiter, server: pulseServer, logger: logger) : nil
            if pulse == nil { arbiter.attach(SimulatedDevice()) }
            defer { pulse?.close() }
            let service = DaemonService(socketPath: path, arbiter: arbiter, logger: logger, limits: limits)
            let group = ServiceGroup(
                configuration: .init(
                    services: [service, await HangupService(logger: logger)], gracefulShutdownSignals: UnixSignal.gracefulStops,
                    logger: logger))
            try await group.run()
        } catch let error as StoreError {
            fail(error.message)
        } catch let error as SocketPathError {
            fail(error.message)
        } catch let error as PulseServer.ConnectionError {
            fail("--backend pulse: \(error.description)")
        }
    }

    private func fail(_ message: String) -> Never {
        let line = Array("audiosessiond: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        Glibc.exit(1)
    }
}

/// `--backend`: where the device's ports and events come from.
enum BackendKind: String, CaseIterable, ExpressibleByArgument {
    case simulated, pulse
}

extension DeviceProfile: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.name) }
}

extension PermissionPolicy: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
