import Foundation
import Scenarios
import Testing

/// Timeline pictures (`audiosession run --timeline-svg`): a golden file, and what a reader must
/// find in it.
@Suite("Timeline pictures")
struct TimelinePictureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Timeline")

    static func draw() async throws -> (String, ScenarioReport) {
        let text = try String(contentsOf: folder.appendingPathComponent("timeline.scn"), encoding: .utf8)
        let scenario = try ScenarioParser.parse(text, file: "timeline.scn")
        var runner = ScenarioRunner(
            driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel), recordsStates: true)
        let report = await runner.run(scenario)
        return (TimelinePicture.svg(report, title: "timeline.scn"), report)
    }

    @Test("The same run draws the same bytes as the golden file")
    func goldenFile() async throws {
        let (svg, _) = try await Self.draw()
        let golden = try String(contentsOf: Self.folder.appendingPathComponent("timeline.svg"), encoding: .utf8)
        #expect(
            svg == golden,
            "timeline.svg differs; after an intended change: cd Tests/ScenariosTests/Timeline && ../../../.build/debug/audiosession run --timeline-svg timeline.svg timeline.scn"
        )
        let (again, _) = try await Self.draw()
        #expect(again == svg, "deterministic")
    }

    @Test("Lanes, spans, gains, route changes and the failed expectation are all drawn")
    func whatAReaderFinds() async throws {
        let (svg, report) = try await Self.draw()
        #expect(report.failed == 1 && report.apps.count == 5)
        for lane in ["system", "music", "maps", "podcast", "memo", "game"] {
            #expect(svg.contains("font-weight=\"bold\" fill=\"#212121\">\(lane)</text>"), "lane \(lane)")
        }
        #expect(svg.contains("<title>music interrupted after steps"))
        #expect(svg.contains(">ducked 0.2</text>"))
        #expect(svg.contains(">muted</text>"))
        #expect(svg.contains("route change (newDeviceAvailable) -&gt;Speaker → -&gt;Headphones"), "escaped as XML")
        #expect(svg.contains("podcast is told: interruption ended should-resume=true"))
        #expect(svg.contains("fill=\"#ffcdd2\"><title>not ok 33: expect music event interruption began"))
        #expect(svg.contains("stroke=\"#d50000\""), "the failed expectation is outlined in the music lane")
        #expect(svg.contains("22 passed, 1 failed"))
        #expect(!svg.contains("<title>music is told: output-volume"), "nothing that did not happen")
    }
}
