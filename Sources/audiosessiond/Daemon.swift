import ArgumentParser
import AudioSessionModel
import AudioSessionDaemon
import AudioSessionRuntime
import AudioSessionWire
import FoundationEssentials
import Logging
import PulseBackend
import ServiceLifecycle

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

    @Option(help: "The simulated device: \(DeviceProfile.allCases.map(\.name).joined(separator: ", ")) (its built-in ports with --backend pulse; default iphone, desktop with pulse).")
    var device: String?

    @Option(help: "Where the ports come from: simulated (the profile and `system plug`), or pulse (a PulseAudio server or PipeWire's pipewire-pulse: its sinks and sources).")
    var backend: String = "simulated"

    @Option(help: "The PulseAudio server for --backend pulse, e.g. unix:/run/user/1000/pulse/native (default: PULSE_SERVER, then the user's).")
    var pulseServer: String?

    @Option(help: "The duck level (D1), 0…1.")
    var duckLevel: Double = 0.2

    @Option(help: "A directory where record permissions and the output volume persist (atomic writes).")
    var stateDir: String?

    @Option(help: "Who answers record-permission prompts: ask (system controllers), grant or deny.")
    var permissionPrompt: String = "ask"

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        if let device, DeviceProfile(name: device) == nil {
            throw ValidationError("unknown device \(device); use one of \(DeviceProfile.allCases.map(\.name).joined(separator: ", "))")
        }
        guard ["simulated", "pulse"].contains(backend) else { throw ValidationError("--backend must be simulated or pulse, not \(backend)") }
        if pulseServer != nil, backend != "pulse" { throw ValidationError("--pulse-server needs --backend pulse") }
        guard (0...1).contains(duckLevel) else { throw ValidationError("--duck-level must be within 0…1, not \(duckLevel)") }
        guard PermissionPolicy(rawValue: permissionPrompt) != nil else {
            throw ValidationError("--permission-prompt must be ask, grant or deny, not \(permissionPrompt)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
    }

    func run() async throws {
        var logger = Logger(label: "audiosessiond")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let path = socket ?? SocketLocation.defaultPath
        do {
            let store = try stateDir.map { (dir: String) throws(StoreError) in try SettingsStore(directory: dir) }
            let arbiter = try Arbiter(
                configuration: .init(
                    profile: DeviceProfile(name: device ?? (backend == "pulse" ? "desktop" : "iphone")) ?? .iphone,
                    duckLevel: duckLevel, store: store,
                    permissionPolicy: PermissionPolicy(rawValue: permissionPrompt) ?? .ask,
                    now: { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) }),
                logger: logger)
            let pulse = backend == "pulse" ? try PulseBackend(arbiter: arbiter, server: pulseServer, logger: logger) : nil
            defer { pulse?.close() }
            let service = DaemonService(socketPath: path, arbiter: arbiter, logger: logger)
            let group = ServiceGroup(
                configuration: .init(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
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
