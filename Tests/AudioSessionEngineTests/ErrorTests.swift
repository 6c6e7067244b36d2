import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

@Suite("Errors (SPEC §12)")
struct ErrorTests {
    @Test("Every code has SPEC's four-character code and decimal value")
    func codes() {
        let expected: [(SessionError.Code, String, Int32)] = [
            (.mediaServicesFailed, "msrv", 1_836_282_486), (.isBusy, "!act", 560_030_580),
            (.incompatibleCategory, "!cat", 560_161_140), (.cannotInterruptOthers, "!int", 560_557_684),
            (.missingEntitlement, "ent?", 1_701_737_535), (.siriIsRecording, "siri", 1_936_290_409),
            (.cannotStartPlaying, "!pla", 561_015_905), (.cannotStartRecording, "!rec", 561_145_187),
            (.badParam, "-50", -50), (.insufficientPriority, "!pri", 561_017_449),
            (.resourceNotAvailable, "!res", 561_145_203), (.unspecified, "what", 2_003_329_396),
        ]
        for (code, fourCC, value) in expected {
            #expect(code.rawValue == value)
            #expect(code.fourCharacterCode == fourCC)
            #expect(SessionError.Code(scenarioName: fourCC) == code)
        }
    }

    @Test("§13: notification values are SPEC's")
    func notificationValues() {
        #expect(InterruptionReason.builtInMicMuted.rawValue == 2)
        #expect(RouteChangeReason.wakeFromSleep.rawValue == 6)
        #expect(RouteChangeReason.noSuitableRouteForCategory.rawValue == 7)
        #expect(RouteChangeReason.routeConfigurationChange.rawValue == 8)
        #expect(SilenceSecondaryAudioHintType.begin.rawValue == 1)
        #expect(RecordPermission.granted.rawValue == 1_735_552_628)
        #expect(RecordPermission.undetermined.rawValue == 1_970_168_948)
        #expect(RecordPermission.denied.rawValue == 1_684_369_017)
        #expect(SetActiveOptions.notifyOthersOnDeactivation.rawValue == 1)
    }

    @Test("A4: the message names the rule broken")
    func messageNamesRule() throws {
        var harness = try Harness(apps: [("a", [.backgroundAudio])])
        harness.call("a", .setCategory(.playback))
        harness.call("a", .setAppState(.background))
        let error = try #require(harness.call("a", .setActive(true)).error)
        #expect(error.code == .cannotInterruptOthers)
        #expect(error.message == "A4: background activation of a non-mixable session needs now-playing")
    }

    @Test("Unknown and duplicate apps are refused with -50")
    func unknownApp() throws {
        var harness = try Harness(apps: [("a", [])])
        #expect(harness.call("b", .setActive(true)).error?.code == .badParam)
        #expect(throws: SessionError.self) { try harness.engine.register("a") }
    }
}
