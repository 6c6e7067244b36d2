import AudioSession
import AudioSessionRuntime
import Foundation
import Logging
import Scenarios
import Testing

/// One test body, two transports: every repository scenario gives the same report in-process
/// (the engine alone), through client connections to an in-process arbiter, and through
/// client connections over a real Unix socket (SCENARIOS.md `--daemon`).
@Suite("Same scenarios, every transport", .serialized)
struct TransportTests {
    static var files: [URL] {
        let directory = Package.root.appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".scn") }.sorted().map { directory.appendingPathComponent($0) }
    }

    static func lines(_ report: ScenarioReport) -> [String] {
        report.results.map(\.outputLine) + [report.summaryLine]
    }

    static func run(_ scenario: Scenario, over transport: AudioSessionTransport) async throws -> ScenarioReport {
        var runner = ScenarioRunner(
            driver: try ConnectedDriver(transport: transport, device: scenario.device, duckLevel: scenario.duckLevel))
        let report = await runner.run(scenario)
        runner.driver.close()
        return report
    }

    @Test func everyScenarioGivesTheSameReportOverEveryTransport() async throws {
        #expect(Self.files.count >= 15)
        let arbiter = try Arbiter(configuration: .init(), logger: Logger.quiet)
        let socket = try await SocketFixture.start()
        defer { Task { await socket.stop() } }
        for file in Self.files {
            let scenario = try ScenarioParser.parse(String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent)
            var embedded = ScenarioRunner(driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel))
            let expected = Self.lines(await embedded.run(scenario))
            #expect(!expected.contains { $0.hasPrefix("not ok") }, "\(file.lastPathComponent) fails in-process")
            let inProcess = try await Self.run(scenario, over: .inProcess(arbiter))
            #expect(Self.lines(inProcess) == expected, "\(file.lastPathComponent) in-process connections")
            let overSocket = try await Self.run(scenario, over: socket.transport)
            #expect(Self.lines(overSocket) == expected, "\(file.lastPathComponent) over the socket")
            // Events reach each app in the same order too.
            #expect(
                overSocket.results.map { $0.events.map { "\($0.app) \($0.notification)" } }
                    == inProcess.results.map { $0.events.map { "\($0.app) \($0.notification)" } })
        }
    }
}
