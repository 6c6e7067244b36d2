import ArgumentParser
import FoundationEssentials
import Scenarios

extension AudioSessionCommand {
    /// `audiosession demo`: runs the bundled scenario and prints what each app saw, step by step.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the bundled demo scenario and print a timeline of what each app saw.")

        @Flag(help: "Print the bundled scenario instead of running it.")
        var printScenario = false

        @Option(help: ArgumentHelp("Also draw the demo as an SVG timeline.", valueName: "out.svg"))
        var svg: String?

        func run() async throws {
            if printScenario {
                print(DemoScenario.text)
                return
            }
            switch await ScenarioFile.run(DemoScenario.text, name: "demo.scn", recordingStates: svg != nil) {
            case .failure(let message):
                print(message)
                throw ExitCode(2)
            case .success(let report):
                print(Timeline.render(report, scenario: DemoScenario.text))
                if let svg { try TimelineFile.write(report, title: "audiosession demo", to: svg) }
                if report.failed > 0 { throw ExitCode(1) }
            }
        }
    }
}
