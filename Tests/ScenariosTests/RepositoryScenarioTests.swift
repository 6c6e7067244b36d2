import Foundation
import Testing

@testable import Scenarios

/// The scenario files in `scenarios/`: each passes, and together they cover SPEC §1–8.
@Suite("Repository scenarios")
struct RepositoryScenarioTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    static var files: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".scn") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Every rule id of SPEC §1–10.
    static let ruleIDs: [String] =
        (1...12).map { "C\($0)" } + (1...3).map { "O\($0)" } + (1...3).map { "M\($0)" } + (1...9).map { "A\($0)" }
        + (1...8).map { "I\($0)" } + (1...5).map { "D\($0)" } + (1...3).map { "OA\($0)" } + (1...3).map { "P\($0)" }
        + (1...3).map { "IO\($0)" } + (1...12).map { "RT\($0)" } + (1...7).map { "HW\($0)" }

    @Test("Every scenario file passes every step")
    func allPass() async throws {
        #expect(!Self.files.isEmpty)
        for file in Self.files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let scenario = try ScenarioParser.parse(text, file: file.lastPathComponent)
            var runner = ScenarioRunner(driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel))
            let report = await runner.run(scenario)
            #expect(report.failed == 0, "\(file.lastPathComponent): \(report.results.filter { !$0.passed }.map(\.outputLine))")
            #expect(report.passed > 0)
        }
    }

    @Test("Every rule id of SPEC §1–10 is cited in a scenario's `Covers:` comment")
    func coverage() throws {
        var covered: Set<String> = []
        for file in Self.files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                guard let range = line.range(of: "Covers:") else { continue }
                covered.formUnion(line[range.upperBound...].split(separator: " ").map(String.init))
            }
        }
        let missing = Self.ruleIDs.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "not covered: \(missing)")
    }
}
