import AudioSessionModel
import Testing

@testable import Scenarios

@Suite("Scenario parser (SCENARIOS.md)")
struct ParserTests {
    @Test("A file parses into declarations and steps with their lines")
    func parsesExample() throws {
        let scenario = try ScenarioParser.parse(
            """
            device desktop   # a comment
            duck-level 0.5
            app music background-audio now-playing answers=grant
            music category playback mode=spokenAudio options=duckOthers,mixWithOthers

            ! music activate !pri
            expect music event route-change reason=categoryChange previous=->Speaker
            expect music gain=1 active=true
            system call begin
            """, file: "x.scn")
        #expect(scenario.device == .desktop)
        #expect(scenario.duckLevel == 0.5)
        #expect(
            scenario.items.first
                == .declare(AppDeclaration(name: "music", capabilities: [.backgroundAudio, .nowPlaying], answer: .grant)))
        let steps = scenario.steps
        #expect(steps.map(\.line) == [4, 6, 7, 8, 9])
        #expect(
            steps[0].action
                == .perform(
                    .app("music", .setCategory(.playback, mode: .spokenAudio, options: [.duckOthers, .mixWithOthers])), .succeed))
        #expect(steps[1].action == .perform(.app("music", .setActive(true)), .failWith(.insufficientPriority)))
        #expect(steps[1].text == "! music activate !pri")
        #expect(
            steps[2].action == .expectEvent("music", .routeChange(reason: .categoryChange, previous: "->Speaker", current: nil)))
        #expect(steps[4].action == .perform(.system(.systemSession(.call, begin: true)), .succeed))
    }

    @Test(
        "A malformed line names file, line, column and what was expected",
        arguments: [
            ("app a\na categry playback", "x.scn:2:3: expected an app verb"),
            ("app a\na category playback options=duckOthers,bogus", "x.scn:2:21: expected options=OPT,OPT…"),
            ("app a\nb activate", "x.scn:2:1: app b is not declared"),
            ("app a\napp a", "x.scn:2:5: app a is already declared"),
            ("app system", "x.scn:1:5: expected an app name"),
            ("app a\ndevice iphone", "x.scn:2:1: `device` must come before any other line"),
            ("app a\na activate\nduck-level 0.3", "x.scn:3:1: `duck-level` must come before the first app or system step"),
            ("duck-level 2", "x.scn:1:12: expected a duck level between 0 and 1"),
            ("app a\nexpect a gain=loud", "x.scn:2:10: expected gain=VALUE with VALUE a number"),
            ("app a\nexpect a colour=red", "x.scn:2:10: expected `event`, `no-events` or PROPERTY=VALUE"),
            ("app a\nexpect a event interruption began reason=loud", "x.scn:2:35: expected reason="),
            ("app a\nexpect a event route-change", "x.scn:2:28: expected reason=REASON, found end of line"),
            ("app a\nexpect a event route-change reason=override previous=Speakers", "x.scn:2:45: expected a route"),
            ("system volume loud", "x.scn:1:15: expected a volume"),
            ("system plugh", "x.scn:1:8: expected a system verb"),
            ("app a\na activate now", "x.scn:2:12: expected end of line, found 'now'"),
            ("app a\n! a activate !zzz", "x.scn:2:14: expected end of line, found '!zzz'"),
            ("app a\na deactivate notify", "x.scn:2:14: expected an option (notify-others)"),
            ("app a background-audio background-audio", "x.scn:1:24: background-audio is given twice"),
            ("device phone", "x.scn:1:8: expected a device profile"),
        ])
    func malformed(text: String, message: String) {
        #expect {
            _ = try ScenarioParser.parse(text, file: "x.scn")
        } throws: { error in
            (error as? ScenarioParseError)?.description.hasPrefix(message) == true
        }
    }

    @Test("Every scenario property and event can be written and read back")
    func propertiesParse() throws {
        let properties = ScenarioProperty.allCases.map { property -> String in
            switch property {
            case .active, .otherAudioPlaying, .secondaryHint, .inputAvailable, .hardwareCodec: "\(property.rawValue)=true"
            case .gain, .outputVolume, .sampleRate, .ioBuffer, .inputGain: "\(property.rawValue)=0.5"
            case .inputChannels, .outputChannels, .maxInputChannels, .maxOutputChannels, .outputLatency:
                "\(property.rawValue)=2"
            case .inputLatency: "input-latency=!cat"
            case .category: "category=record"
            case .mode: "mode=default"
            case .options: "options=none"
            case .route: "route=MicrophoneBuiltIn>-"
            case .inputs, .outputs: "\(property.rawValue)=USBAudio+Headphones"
            case .recordPermission: "record-permission=granted"
            case .availableInputs: "available-inputs=built-in-mic+usb-1"
            case .preferredInput: "preferred-input=none"
            case .inputDataSource: "input-data-source=Front"
            }
        }
        let scenario = try ScenarioParser.parse("app a\nexpect a " + properties.joined(separator: " "), file: "x")
        guard case .expectProperties(_, let expectations) = scenario.steps[0].action else {
            Issue.record("not a property expectation")
            return
        }
        #expect(expectations.map(\.property) == ScenarioProperty.allCases)
    }
}
