import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

extension AudioSessionCommand {
    /// `audiosession soak`: many clients churning against a daemon for a while; exit 0 only with
    /// zero errors, the invariants holding, and the daemon's memory flat after the warm-up.
    struct Soak: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Churn many clients against a daemon and check nothing breaks or leaks.",
            discussion: """
                Each client connects, sets a category, activates, starts and stops output, deactivates and \
                disconnects, over and over; a system controller interleaves a headphone plug, a call, volume \
                changes and a wake, and checks the engine's invariants every second. Afterwards every app must \
                have departed with no active session, no call and no invariant broken. Prints operations per \
                second, errors and the daemon's RSS at start, after the warm-up and at the end. Exit status: 0 \
                when there was no error and the RSS grew by at most the tolerance after the warm-up; 1 \
                otherwise; 2 when the soak could not start.
                """
        )

        @Option(help: "How many app clients churn at once.")
        var clients = 100

        @Option(help: "How long to run, in seconds.")
        var seconds = 10.0

        @Option(help: "Seconds before the RSS baseline is taken (default: a sixth of the run).")
        var warmUp: Double?

        @Option(help: "Milliseconds between system events (0: none).")
        var systemInterval = 20.0

        @Option(help: "Milliseconds each client waits between its operations (0: as fast as the daemon answers).")
        var pause = 0.0

        @Option(help: "Allowed RSS growth after the warm-up, in percent.")
        var rssTolerance = 10.0

        @Option(help: "Seed of the clients' choices, to repeat a run.")
        var seed: UInt64 = 1

        @Option(help: "Soak the daemon listening on this socket instead of a private one.")
        var socket: String?

        func validate() throws {
            guard clients > 0 else { throw ValidationError("--clients must be at least 1") }
            guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
            if let warmUp, !(0..<seconds).contains(warmUp) { throw ValidationError("--warm-up must be less than --seconds") }
            guard systemInterval >= 0 else { throw ValidationError("--system-interval must not be negative") }
            guard pause >= 0 else { throw ValidationError("--pause must not be negative") }
        }

        func run() throws {
            var privateDaemon: PrivateDaemon?
            defer { privateDaemon?.stop() }
            let socketPath: String
            do {
                if let socket {
                    socketPath = socket
                } else {
                    let started = try PrivateDaemon.start()
                    privateDaemon = started
                    socketPath = started.socketPath
                }
            } catch {
                printError("audiosession soak: \(error)")
                throw ExitCode(2)
            }
            raiseDescriptorLimit(to: clients + 64)
            let settings = SoakLoad.Settings(
                socket: socketPath, clients: clients, seconds: seconds, warmUp: warmUp ?? seconds / 6,
                systemInterval: systemInterval / 1000, pause: pause / 1000, seed: seed)
            print(
                "soak: \(clients) clients for \(seconds) s against \(socket ?? "a private daemon"), warm-up \(settings.warmUp) s")
            let load: SoakLoad
            do {
                load = try SoakLoad(settings)
                try load.run()
            } catch {
                printError("audiosession soak: \(error)")
                throw ExitCode(2)
            }
            let tally = load.tally
            print(tally.report(seconds: seconds - Double(load.restNanoseconds) / 1e9, tolerance: rssTolerance))
            let memoryFlat = tally.rssGrowth.map { $0 <= rssTolerance } ?? true
            print(tally.errorCount == 0 && memoryFlat ? "PASS" : "FAIL")
            if tally.errorCount > 0 || !memoryFlat { throw ExitCode(1) }
        }

        /// A thousand clients need more descriptors than the usual soft limit of 1024.
        private func raiseDescriptorLimit(to wanted: Int) {
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
            limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
