import ArgumentParser
import AudioSessionConfiguration
import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import DesktopNotifications
import FoundationEssentials
import Logging
import PulseBackend
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// `audiosessiond`: the arbiter as a daemon on a Unix socket. Parsing and wiring only.
struct Daemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosessiond",
        abstract: "The audio session daemon: one arbiter for every app process, over a Unix socket.",
        discussion: """
            Apps connect with the AudioSession library (AUDIOSESSION_SOCKET=PATH) or the C API; \
            `audiosession status`, `events` and `system` watch and drive it. Settings come from --config FILE \
            (docs/configuration.md), then from these options. SIGHUP reloads the file without dropping a \
            connection; SIGTERM, SIGINT and the other termination signals stop it gracefully. Exit status: 0 \
            after a graceful stop, 1 when it cannot start or --check-config finds a problem (the message says why).
            """
    )

    @Option(
        help:
            "The configuration file (YAML; docs/configuration.md). Reloaded on SIGHUP. Default: $XDG_CONFIG_HOME/audiosession/audiosessiond.yaml (else ~/.config/…) when it exists."
    )
    var config: String?

    /// The file read: `--config`, else the user's own when it exists (P4: a desktop user sets
    /// the permission fallback without editing a unit).
    var configFile: String? {
        if let config { return config }
        let environment = ProcessInfo.processInfo.environment
        guard
            let base = environment["XDG_CONFIG_HOME"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? environment["HOME"].map({ $0 + "/.config" })
        else { return nil }
        let path = base + "/audiosession/audiosessiond.yaml"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    @Option(help: "Check a configuration file (and its manifests), print what it sets, and exit.")
    var checkConfig: String?

    @Option(help: "The socket path (default $XDG_RUNTIME_DIR/audiosession/socket). Its directory must be mode 700.")
    var socket: String?

    @Option(help: "The device profile: its built-in ports (with --backend pulse too; default iphone, desktop with pulse).")
    var device: DeviceProfile?

    @Option(
        help:
            "Where the ports come from: simulated (the profile and `system plug`), or pulse (a PulseAudio server or PipeWire's pipewire-pulse: its sinks and sources). Default simulated."
    )
    var backend: DaemonSettings.Backend?

    @Option(
        help:
            "The PulseAudio server for --backend pulse, e.g. unix:/run/user/1000/pulse/native (default: PULSE_SERVER, then the user's)."
    )
    var pulseServer: String?

    @Option(help: "The duck level (D1), 0…1 (default 0.2).")
    var duckLevel: Double?

    @Option(help: "A directory where record permissions and the output volume persist (atomic writes).")
    var stateDir: String?

    @Option(help: "Who answers record-permission prompts: ask (system controllers), grant or deny (default ask).")
    var permissionPrompt: PermissionPolicy?

    @Option(
        help:
            "P4: the answer when no system controller is connected to ask: granted or denied (default: the profile's, desktop granted, others denied)."
    )
    var permissionFallback: PermissionAnswer?

    @Option(
        help:
            "P4: seconds the desktop notification asking for the microphone waits before permission-fallback answers (default 60)."
    )
    var permissionTimeout: Double?

    @Option(
        help:
            "The trust mode: user (one user's daemon) or system (a device's; lists and manifests from --config). Default: the file's, else user."
    )
    var trust: TrustPolicy.Mode?

    @Option(help: "Log level (default info).")
    var logLevel: Logger.Level?

    @Option(help: "Seconds a connection has to say hello before it is closed (default 5).")
    var helloTimeout: Double?

    @Option(help: "Connections open at once, in all (default 4096).")
    var maxConnections: Int?

    @Option(help: "Connections open at once per uid (default 1024).")
    var maxConnectionsPerUid: Int?

    func validate() throws {
        if checkConfig != nil, config != nil { throw ValidationError("give --config or --check-config, not both") }
    }

    /// Defaults, then the configuration file, then the options given here.
    func settings() throws -> DaemonSettings {
        var settings = DaemonSettings()
        if let configFile { settings = try ConfigurationFile.read(configFile) }
        try override(&settings)
        return settings
    }

    /// The options given on the command line win over the file (at start and on every reload).
    func override(_ settings: inout DaemonSettings) throws {
        if let socket { settings.socket = socket }
        if let device { settings.device = device }
        if let backend { settings.backend = backend }
        if let pulseServer { settings.pulseServer = pulseServer }
        if let duckLevel { settings.duckLevel = duckLevel }
        if let stateDir { settings.stateDir = stateDir }
        if let permissionPrompt { settings.permissionPrompt = permissionPrompt }
        if let permissionFallback { settings.permissionFallback = permissionFallback == .granted }
        if let permissionTimeout {
            guard permissionTimeoutRange.contains(permissionTimeout) else {
                throw ConfigurationError(
                    "--permission-timeout must be between \(permissionTimeoutRange.lowerBound) and \(permissionTimeoutRange.upperBound) seconds, not \(permissionTimeout)"
                )
            }
            settings.permissionTimeout = permissionTimeout
        }
        if let logLevel { settings.logLevel = logLevel }
        if let trust, trust != settings.trust.mode {
            // The mode named here; the file's lists and manifests only count in its own mode.
            settings.trust = trust == .user ? .user : TrustPolicy(mode: .system)
        }
        if let helloTimeout { settings.limits.helloTimeout = helloTimeout }
        if let maxConnections { settings.limits.connections = maxConnections }
        if let maxConnectionsPerUid { settings.limits.connectionsPerUID = maxConnectionsPerUid }
        if settings.pulseServer != nil, settings.backend != .pulse {
            throw ValidationError("--pulse-server needs --backend pulse")
        }
        guard (0...1).contains(settings.duckLevel) else {
            throw ValidationError("--duck-level must be within 0…1, not \(settings.duckLevel)")
        }
        if let problem = settings.limits.problem { throw ValidationError(problem) }
    }

    func run() async throws {
        if let checkConfig {
            do {
                print(ConfigurationSummary(try ConfigurationFile.read(checkConfig), file: checkConfig).text)
                return
            } catch {
                fail("\(error)")
            }
        }
        // Read once, here: the file (and its manifests) and the options over it.
        let settings: DaemonSettings
        do { settings = try self.settings() } catch { fail("\(error)") }
        let level = SharedLogLevel(settings.logLevel)
        let logger = level.logger(label: "audiosessiond")
        // T5: systemd's soft limit is 1,024 whatever the hard one is; the connection limits are
        // then cut to the descriptors there are, with a reserve for root and controllers.
        let descriptors = DescriptorBudget.raiseSoftLimit()
        let raised = descriptors.after > descriptors.before ? " (soft limit raised from \(descriptors.before))" : ""
        logger.info(
            "descriptors: \(descriptors.after)\(raised); \(DescriptorBudget(limit: descriptors.after).connections(settings.limits))"
        )
        // systemd socket activation: serve the socket systemd made (README "Install").
        let inherited = SystemdActivation.inheritedSocket()
        let path = inherited.flatMap(SystemdActivation.path(of:)) ?? settings.socket ?? SocketLocation.defaultPath
        do {
            let store = try settings.stateDir.map { (dir: String) throws(StoreError) in try SettingsStore(directory: dir) }
            var configuration = Arbiter.Configuration(
                profile: settings.profile, duckLevel: settings.duckLevel, store: store,
                permissionPolicy: settings.permissionPrompt, trust: settings.trust, policy: settings.policy,
                now: { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) })
            configuration.permissionFallback = settings.fallbackAnswer  // P4
            configuration.permissionTimeout = settings.rules.permissionTimeout
            configuration.permissionAgent = NotificationPermissionAgent()  // P4: the desktop's notification server
            let arbiter = try Arbiter(configuration: configuration, logger: logger)
            // The one door: the simulated device, or the sound server's backend.
            let pulse =
                settings.backend == .pulse
                ? PulseBackend(
                    arbiter: arbiter, server: settings.pulseServer,
                    // OA6: kept where the settings are, else beside the socket (the user's runtime directory).
                    ledger: (settings.stateDir ?? path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ".")
                        + "/programs-own-state.json",
                    logger: logger) : nil
            if pulse == nil { arbiter.attach(SimulatedDevice()) }
            defer { pulse?.close() }
            let service = DaemonService(
                socketPath: path, arbiter: arbiter, logger: logger, limits: settings.limits, inheritedSocket: inherited)
            let reloader = Reloader(daemon: self, settings: settings, service: service, level: level, logger: logger)
            logger.info(
                "starting",
                metadata: ["trust": "\(settings.trust.mode)", "config": "\(configFile ?? "none")", "socket": "\(path)"])
            let group = ServiceGroup(
                configuration: .init(
                    services: [service, await HangupService(logger: logger, reload: reloader.reload)],
                    gracefulShutdownSignals: UnixSignal.gracefulStops, logger: logger))
            try await group.run()
        } catch let error as StoreError {
            fail(error.message)
        } catch let error as SocketPathError {
            fail(error.message)
        }
    }

    private func fail(_ message: String) -> Never {
        let line = Array("audiosessiond: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        Glibc.exit(1)
    }
}

extension DaemonSettings.Backend: ExpressibleByArgument {}
extension TrustPolicy.Mode: ExpressibleByArgument {}

extension DeviceProfile: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.name) }
}

extension PermissionPolicy: ExpressibleByArgument {}
extension PermissionAnswer: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// The daemon's entry point, for its executable (and the release's multi-call binary).
/// Parses `CommandLine.arguments` and runs the daemon until it is stopped.
public func audiosessiondMain() async { await Daemon.main() }
