import ArgumentParser
import Foundation
import Scenarios

extension AudioSessionCommand {
    /// `audiosession run FILE...`: exit 0 when every step passed, 1 otherwise, 2 when a file does not parse.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run scenario files (.scn) and report each step.",
            discussion: "Exit status: 0 every step passed, 1 some step failed, 2 a file does not parse."
        )

        @Argument(help: "Scenario files to run, in order.")
        var files: [String]

        @Flag(help: "Print a timeline of every step and the events each app received, instead of ok/not ok lines.")
        var timeline = false

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one scenario file") }
        }

        func run() async throws {
            var status: Int32 = 0
            for file in files {
                switch await ScenarioFile.run(file) {
                case .failure(let message):
                    FileHandle.standardError.write(Data((message + "\n").utf8))
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

/// Reading, parsing and running one scenario file in this process.
enum ScenarioFile {
    enum Outcome {
        case success(ScenarioReport)
        /// The file cannot be read or does not parse: `file:line:column: …`.
        case failure(String)
    }

    /// The report, or the message of a file that cannot be read or parsed.
    static func run(_ path: String) async -> Outcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure("\(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure("\(path):1:1: expected UTF-8 text")
        }
        return await run(text, name: path)
    }

    static func run(_ text: String, name: String) async -> Outcome {
        do {
            let scenario = try ScenarioParser.parse(text, file: name)
            var runner = ScenarioRunner(driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel))
            return .success(await runner.run(scenario))
        } catch {
            return .failure(error.description)
        }
    }
}
