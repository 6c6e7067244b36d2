import AudioSessionModel
import Testing

@testable import Scenarios

@Suite("Scenario runner")
struct RunnerTests {
    func run(_ text: String) async throws -> ScenarioReport {
        let scenario = try ScenarioParser.parse(text, file: "t.scn")
        var runner = ScenarioRunner(driver: EmbeddedDriver(device: scenario.device, duckLevel: scenario.duckLevel))
        return await runner.run(scenario)
    }

    @Test("Output lines and summary are as specified; a step after a failed step still runs")
    func outputLines() async throws {
        let report = try await run(
            """
            app music   # declarations print nothing
            music activate
            ! music activate
            expect music active=false gain=1
            ! music category playback options=defaultToSpeaker -50
            expect music event interruption began
            expect music no-events
            """)
        #expect(
            report.results.map(\.outputLine) == [
                "ok 2: music activate",
                "not ok 3: ! music activate — expected failure, got success",
                "not ok 4: expect music active=false gain=1 — expected active=false, got active=true",
                "ok 5: ! music category playback options=defaultToSpeaker -50",
                "not ok 6: expect music event interruption began — expected interruption began, got no event",
                "ok 7: expect music no-events",
            ])
        #expect(report.summaryLine == "3 passed, 3 failed")
    }

    @Test("A wrong error code, and an unexpected error, are reported with the engine's message")
    func errorCodes() async throws {
        let report = try await run(
            """
            app a
            system call begin
            ! a activate !int
            a activate
            """)
        #expect(report.results[1].outputLine.hasPrefix("not ok 3: ! a activate !int — expected !int, got !pri (A3:"))
        #expect(report.results[2].outputLine.hasPrefix("not ok 4: a activate — expected success, got !pri (A3:"))
    }

    @Test("`expect … event` consumes the next event whether it matched or not")
    func eventsAreConsumed() async throws {
        let report = try await run(
            """
            app a
            app b
            a activate
            b activate
            system call begin
            expect a event interruption ended
            expect a event interruption began
            expect b event interruption began reason=builtInMicMuted
            expect b no-events
            """)
        #expect(report.results.map(\.passed) == [true, true, true, false, false, false, true])
        #expect(
            report.results[5].failure
                == "expected interruption began reason=builtInMicMuted, got interruption began reason=default")
    }

    @Test("Numbers match within 1e-4")
    func tolerance() async throws {
        let report = try await run("app a\nsystem volume 0.33333\nexpect a output-volume=0.3333")
        #expect(report.results[1].passed)
        let event = try await run("app a\nsystem volume 0.33333\nexpect a event output-volume 0.3334")
        #expect(event.results[1].passed)
        let far = try await run("app a\nsystem volume 0.5\nexpect a output-volume=0.5002")
        #expect(!far.results[1].passed)
    }
}
