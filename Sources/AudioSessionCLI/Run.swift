import ArgumentParser
import AudioSessionClient
import FoundationEssentials
import Scenarios

extension AudioSessionCommand {
    /// `audiosession run FILE...`: exit 0 when every step passed, 1 otherwise, 2 when a file does not parse.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run scenario files (.scn) and report each step.",
            discussion: """
                In-process by default. --daemon starts a private audiosessiond on a temporary socket and runs \
                each scenario app as its own client connection; --socket PATH does the same against a running \
                daemon (whose device is reset for each file, so no app may be connected to it). \
                Exit status: 0 every step passed, 1 some step failed, 2 a file does not parse or the daemon \
                cannot be reached.
                """
        )

        @Argument(help: "Scenario files to run, in order.")
        var files: [String]

        @Flag(help: "Print a timeline of every step and the events each app received, instead of ok/not ok lines.")
        var timeline = false

        @Option(
            help: ArgumentHelp(
                "Draw the run as an SVG timeline (swimlanes per app: active, interrupted, ducked, muted, route changes, failures).",
                valueName: "out.svg"))
        var timelineSvg: String?

        @Flag(help: "Run against a private daemon started for this run.")
        var daemon = false

        @Option(help: "Run against the daemon listening on this socket.")
        var socket: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one scenario file") }
            if daemon, socket != nil { throw ValidationError("--daemon and --socket exclude each other") }
            if timelineSvg != nil, files.count != 1 { throw ValidationError("--timeline-svg draws one file: give exactly one") }
        }

        func run() async throws {
            var privateDaemon: PrivateDaemon?
            let target: ScenarioFile.Target
            if daemon {
                do {
                    let started = try PrivateDaemon.start()
                    privateDaemon = started
                    target = .daemon(socketPath: started.socketPath)
                } catch {
                    printError("audiosession: \(error)")
                    throw ExitCode(2)
                }
            } else if let socket {
                target = .daemon(socketPath: socket)
            } else {
                target = .inProcess
            }
            defer { privateDaemon?.stop() }
            var status: Int32 = 0
            for file in files {
                let outcome = await ScenarioFile.run(file, on: target, recordingStates: timelineSvg != nil)
                if case .success(let report) = outcome, let timelineSvg {
                    try TimelineFile.write(report, title: file, to: timelineSvg)
                }
                switch outcome {
                case .failure(let message):
                    printError(message)
                    status = 2
                case .success(let report) where timeline:
                    print(Timeline.render(report, scenario: (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""))
                    if report.failed > 0, status == 0 { status = 1 }
                case .success(let report):
                    for result in report.results { print(result.outputLine) }
                    print(report.summaryLine)
                    if report.failed > 0, status == 0 { status = 1 }
                }
            }
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// Reading, parsing and running one scenario file.
enum ScenarioFile {
    enum Outcome {
        case success(ScenarioReport)
        /// The file cannot be read or does not parse, or the daemon cannot be used: `file:line:column: …`.
        case failure(String)
    }

    /// Where the scenario's apps run.
    enum Target {
        /// The engine in this process (`EmbeddedDriver`).
        case inProcess
        /// A daemon: one client connection per app (`ConnectedDriver`).
        case daemon(socketPath: String)
    }

    /// The report, or the message of a file that cannot be read or parsed. `recordingStates`
    /// keeps every app's session after each step (for `TimelinePicture`).
    static func run(_ path: String, on target: Target = .inProcess, recordingStates: Bool = false) async -> Outcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure("\(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure("\(path):1:1: expected UTF-8 text")
        }
        return await run(text, name: path, on: target, recordingStates: recordingStates)
    }

    static func run(_ text: String, name: String, on target: Target = .inProcess, recordingStates: Bool = false) async -> Outcome
    {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(text, file: name)
        } catch {
            return .failure(error.description)
        }
        switch target {
        case .inProcess:
            var runner = ScenarioRunner(
                driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel), recordsStates: recordingStates)
            return .success(await runner.run(scenario))
        case .daemon(let path):
            let driver: ConnectedDriver
            do {
                driver = try ConnectedDriver(
                    transport: .daemon(socketPath: path), device: scenario.device, duckLevel: scenario.duckLevel)
            } catch {
                return .failure("\(name): the daemon at \(path) cannot run it: \(error)")
            }
            var runner = ScenarioRunner(driver: driver, recordsStates: recordingStates)
            let report = await runner.run(scenario)
            runner.driver.close()
            return .success(report)
        }
    }
}

/// Writing a timeline picture.
enum TimelineFile {
    static func write(_ report: ScenarioReport, title: String, to path: String) throws {
        let svg = TimelinePicture.svg(report, title: title)
        guard FileManager.default.createFile(atPath: path, contents: Data(svg.utf8)) else {
            printError("audiosession: cannot write \(path)")
            throw ExitCode(2)
        }
    }
}
