import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

@Suite("Activation, interruptions and notifications (SPEC §4–5, §13)")
struct ArbitrationTests {
    @Test("I1, I4: several sessions interrupted in one step are told most recently activated first")
    func deliveryOrder() throws {
        var harness = try Harness(apps: [("a", []), ("b", []), ("c", [])])
        for app: AppID in ["b", "a", "c"] {
            harness.call(app, .setCategory(.ambient))
            harness.call(app, .setActive(true))
        }
        let outcome = harness.system(.systemSession(.call, begin: true))
        #expect(outcome.interruptedApps == ["c", "a", "b"])
        let ended = harness.system(.systemSession(.call, begin: false))
        #expect(ended.notifications.map(\.app) == ["c", "a", "b"])
        #expect(ended.notifications.allSatisfy { $0.notification == .interruptionEnded(shouldResume: true) })
    }

    @Test("I1: an interruption stops the session's I/O and says so to the backend")
    func interruptionStopsIO() throws {
        var harness = try Harness(apps: [("a", []), ("b", [])])
        harness.call("a", .startOutput)
        let outcome = harness.call("b", .setActive(true))
        #expect(outcome.effects.contains(.stopIO("a", output: true, input: false)))
        #expect(!harness.status("a").isOutputRunning)
    }

    @Test("N2: within one app, interruption events come before route changes and hints")
    func deliveryPhases() throws {
        var harness = try Harness(apps: [("music", []), ("voip", []), ("fx", [])])
        harness.call("fx", .setCategory(.ambient))
        harness.call("music", .startOutput)
        harness.call("fx", .setActive(true))
        harness.call("voip", .setCategory(.playAndRecord))
        // voip's activation interrupts music and becomes the routing owner (receiver): music is
        // told `began` then a route change; fx's hint ends (music stopped) after its route change.
        let outcome = harness.call("voip", .setActive(true))
        let music = outcome.notifications(of: "music")
        #expect(music.count == 2)
        #expect(music.first == .interruptionBegan(reason: .default))
        if case .routeChange(let reason, _, let current) = music.last {
            #expect(reason == .categoryChange)
            #expect(current.outputs.map(\.type) == [.receiver])
        } else {
            Issue.record("expected a route change, got \(music)")
        }
        let fx = outcome.notifications(of: "fx")
        #expect(fx.count == 2)
        #expect(fx.last == .silenceSecondaryAudioHint(.end))
    }

    @Test("A5: deactivation with running I/O happens, with its effects, and reports !act")
    func deactivateWhileRunning() throws {
        var harness = try Harness(apps: [("a", []), ("b", [])])
        harness.call("b", .startOutput)
        harness.call("a", .startOutput)
        let outcome = harness.call("a", .setActive(false, options: .notifyOthersOnDeactivation))
        #expect(outcome.error?.code == .isBusy)
        #expect(outcome.notifications(of: "b") == [.interruptionEnded(shouldResume: true)])
        #expect(outcome.effects.contains(.stopIO("a", output: true, input: false)))
        #expect(!harness.status("a").isActive)
    }

    @Test("A7: a refused step returns no effects and leaves the engine equal to before")
    func refusedStepChangesNothing() throws {
        var harness = try Harness(apps: [("a", [.backgroundAudio]), ("b", [])])
        harness.call("b", .startOutput)
        harness.call("a", .setCategory(.playback))
        harness.call("a", .setAppState(.background))
        let before = harness.engine
        for call: AppCall in [.setActive(true), .startOutput, .startInput, .setMode(.voiceChat)] {
            let outcome = harness.call("a", call)
            #expect(outcome.error != nil)
            #expect(outcome.effects.isEmpty)
            #expect(harness.engine == before)
        }
    }

    @Test("IO2: !res after an implicit activation undoes nothing because nothing was done (kiosk)")
    func startInputWithoutInput() throws {
        var harness = try Harness(profile: .kiosk, apps: [("a", []), ("b", [])])
        harness.call("b", .startOutput)
        harness.call("a", .setCategory(.record))
        let before = harness.engine
        let outcome = harness.call("a", .startInput)
        #expect(outcome.error?.code == .resourceNotAvailable)
        #expect(harness.engine == before)
        #expect(harness.status("b").isActive)
    }

    @Test("D1, D4: gain effects are sent to active sessions when their gain changes")
    func gainEffects() throws {
        var harness = try Harness(apps: [("music", []), ("nav", [])])
        harness.call("music", .startOutput)
        harness.call("nav", .setCategory(.playback, options: .duckOthers))
        let ducking = harness.call("nav", .setActive(true))
        #expect(ducking.effects.contains(.outputGain("music", 0.2)))
        let unducking = harness.call("nav", .setActive(false))
        #expect(unducking.effects.contains(.outputGain("music", 1)))
    }

    @Test("P3, D5: input records zeros until granted, and in the background without background-audio")
    func recordsSilence() throws {
        var harness = try Harness(apps: [("a", [])])
        harness.call("a", .setCategory(.record))
        let outcome = harness.call("a", .startInput)
        #expect(outcome.effects.contains(.askRecordPermission("a")))
        #expect(harness.status("a").recordsSilence)
        let answer = harness.engine.apply(.recordPermissionAnswer("a", granted: true))
        #expect(answer.notifications(of: "a") == [.recordPermission(granted: true)])
        #expect(!harness.status("a").recordsSilence)
        harness.call("a", .setAppState(.background))
        #expect(harness.status("a").recordsSilence)
        // An answer nobody asked for is refused.
        #expect(harness.engine.apply(.recordPermissionAnswer("a", granted: false)).error?.code == .badParam)
    }

    @Test("I7: a session with the override keeps recording, and records zeros")
    func mutedMicrophoneOverride() throws {
        var harness = try Harness(apps: [("a", [])])
        _ = harness.engine.apply(.system(.microphoneMute(on: true)))
        harness.call("a", .setCategory(.playAndRecord, options: .overrideMutedMicrophoneInterruption))
        harness.call("a", .startInput)
        _ = harness.engine.apply(.recordPermissionAnswer("a", granted: true))
        #expect(harness.status("a").isActive)
        #expect(harness.status("a").recordsSilence)
    }

    @Test("RT11 wake: every active session is told wakeFromSleep with previous = current")
    func wake() throws {
        var harness = try Harness(apps: [("a", []), ("b", [])])
        harness.call("a", .setActive(true))
        let outcome = harness.system(.wake)
        let route = harness.status("a").currentRoute
        #expect(outcome.notifications(of: "a") == [.routeChange(reason: .wakeFromSleep, previous: route, current: route)])
        #expect(outcome.notifications(of: "b").isEmpty)
    }
}
