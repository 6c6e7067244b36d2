import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

/// `Step.departure`: an app's process ends; nobody stays ducked, silenced or interrupted (A6, D4, C11).
@Suite struct DepartureTests {
    @Test func aDuckingAppThatDepartsRestoresTheOthersGain() throws {
        var h = try Harness(apps: [("music", [.backgroundAudio]), ("maps", [.backgroundAudio])])
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        h.call("maps", .setCategory(.playback, options: .duckOthers))
        h.call("maps", .setActive(true))
        h.call("maps", .startOutput)
        #expect(h.status("music").outputGain == 0.2)
        let outcome = h.step(.departure("maps"))
        #expect(outcome.error == nil)  // A5 does not apply: the I/O was stopped first
        #expect(outcome.effects.contains(.outputGain("music", 1)))
        #expect(h.status("music").outputGain == 1)
        #expect(h.engine.activeApps == ["music"])
    }

    @Test func anInterrupterThatDepartsEndsItsInterruptionsWithShouldResume() throws {
        var h = try Harness(apps: [("music", [.backgroundAudio]), ("call", [.backgroundAudio])])
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        h.call("call", .setCategory(.playAndRecord, mode: .voiceChat))
        h.call("call", .setActive(true))
        #expect(h.status("music").isInterrupted)
        let outcome = h.step(.departure("call"))
        #expect(outcome.notifications(of: "music").first == .interruptionEnded(shouldResume: true))
        #expect(!h.status("music").isInterrupted)
    }

    @Test func aRecorderThatDepartsStopsSilencingOthers() throws {
        var h = try Harness(apps: [("music", [.backgroundAudio]), ("memo", [])])
        h.call("music", .setCategory(.playback, options: .mixWithOthers))
        h.call("music", .setActive(true))
        h.call("memo", .setCategory(.record))
        h.call("memo", .setActive(true))
        #expect(h.status("music").outputGain == 0)  // C11
        h.step(.departure("memo"))
        #expect(h.status("music").outputGain == 1)
    }

    @Test func aDepartedAppIsGoneUntilItRegistersAgainWithAFreshSession() throws {
        var h = try Harness(apps: [("game", [])])
        h.call("game", .setCategory(.ambient))
        h.step(.recordPermissionAnswer("game", granted: true))  // no prompt: -50, ignored
        h.step(.departure("game"))
        #expect(!h.engine.isPresent("game"))
        #expect(h.call("game", .setActive(true)).error?.code == .badParam)
        #expect(h.step(.departure("game")).error?.code == .badParam)
        try h.engine.register("game", capabilities: [.backgroundAudio])
        #expect(h.engine.isPresent("game"))
        #expect(h.status("game").category == .soloAmbient)  // C8
        #expect(h.call("game", .setActive(true)).error == nil)
        #expect(throws: SessionError.self) { try h.engine.register("game") }
    }

    @Test func aDepartedAppKeepsItsRecordPermissionAndLosesItsPrompt() throws {
        var h = try Harness(apps: [("memo", [])])
        h.call("memo", .requestRecordPermission)
        h.step(.departure("memo"))
        try h.engine.register("memo")
        #expect(h.step(.recordPermissionAnswer("memo", granted: true)).error?.code == .badParam)
        h.call("memo", .requestRecordPermission)
        h.step(.recordPermissionAnswer("memo", granted: true))
        h.step(.departure("memo"))
        // The session is freed; the permission is device state (P1) and comes back with the app.
        #expect(h.engine.status(of: "memo") == nil)
        #expect(h.engine.settings.recordPermissions["memo"] == .granted)
        try h.engine.register("memo")
        #expect(h.status("memo").recordPermission == .granted)
    }

    @Test("History costs nothing: a departed app's session slot is freed and taken by the next app")
    func departuresFreeTheirSlots() throws {
        var h = try Harness(apps: [("music", [.backgroundAudio])])
        for round in 0..<1_000 {
            let app = AppID("visitor-\(round)")
            try h.engine.register(app)
            h.call(app, .setCategory(.playback, options: .mixWithOthers))
            h.call(app, .setActive(true))
            h.step(.departure(app))
        }
        #expect(h.engine.sessions.count == 2)  // music and one slot, reused 1,000 times
        #expect(h.engine.apps == ["music"])
        #expect(h.engine.invariantViolations.isEmpty)
        // A notification to every app reaches the apps present only.
        let volume = h.system(.outputVolume(0.5))
        #expect(volume.notifications.map(\.app) == ["music"])
        // MS2 resets the sessions present; a free slot stays free (it was reset into a live one).
        let reset = h.system(.mediaServicesReset)
        #expect(reset.notifications.map(\.app) == ["music", "music"])
        #expect(h.engine.invariantViolations.isEmpty, "\(h.engine.invariantViolations)")
        try h.engine.register("late")
        #expect(h.engine.sessions.count == 2 && h.engine.apps.sorted() == ["late", "music"])
    }

    @Test func settingsSurviveIntoANewEngineAndBadOnesChangeNothing() throws {
        var h = try Harness(apps: [("memo", [])])
        h.call("memo", .requestRecordPermission)
        h.step(.recordPermissionAnswer("memo", granted: false))
        h.system(.outputVolume(0.4))
        var fresh = Engine()
        try fresh.restore(h.engine.settings)
        #expect(fresh.settings == DeviceSettings(recordPermissions: ["memo": .denied], outputVolume: 0.4))
        #expect(throws: SessionError.self) { try fresh.restore(DeviceSettings(outputVolume: 2)) }
        #expect(throws: SessionError.self) { try fresh.restore(DeviceSettings(recordPermissions: ["x": .undetermined])) }
        #expect(fresh.settings.outputVolume == 0.4)
    }
}
