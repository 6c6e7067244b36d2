import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

/// Other audio as the engine's own concept: streams of programs that do not use us (OA1, D1,
/// C11, OA2, I4), governed but never an app.
@Suite("Other audio")
struct OtherAudioTests {
    static let stream = OtherAudio(id: "pulse:7", name: "Firefox", role: "music")

    /// The other-audio effects of a step.
    static func controls(_ outcome: StepOutcome) -> [Effect] {
        outcome.effects.filter {
            switch $0 {
            case .otherAudio, .otherAudioStopped: true
            default: false
            }
        }
    }

    func harness() throws -> Harness {
        try Harness(apps: [("music", [.backgroundAudio, .nowPlaying]), ("nav", [.backgroundAudio]), ("memo", [])])
    }

    @Test("OA1: it counts as other audio for every app, tells nobody, and is listed with its gain")
    func counts() throws {
        var h = try harness()
        let started = h.system(.otherAudioStarted(Self.stream))
        #expect(started.error == nil)
        #expect(started.notifications.isEmpty)
        #expect(Self.controls(started) == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])
        #expect(h.status("music").isOtherAudioPlaying && h.status("memo").isOtherAudioPlaying)
        #expect(!h.status("music").secondaryAudioShouldBeSilencedHint)  // it mixes (OA2)
        #expect(h.engine.deviceStatus.otherAudio == [OtherAudioStatus(audio: Self.stream, gain: 1, isMuted: false)])
        #expect(h.engine.apps == ["music", "nav", "memo"])  // no app
        let stopped = h.system(.otherAudioStopped(id: "pulse:7"))
        #expect(Self.controls(stopped) == [.otherAudioStopped(id: "pulse:7")])
        #expect(!h.status("music").isOtherAudioPlaying)
        #expect(h.engine.deviceStatus.otherAudio.isEmpty)
    }

    @Test("D1: ducked while an app's duckOthers session is active; C11: silenced while a record session is")
    func ducked() throws {
        var h = try harness()
        h.system(.otherAudioStarted(Self.stream))
        h.call("nav", .setCategory(.playback, options: .duckOthers))
        let ducking = h.call("nav", .setActive(true))
        #expect(Self.controls(ducking) == [.otherAudio(id: "pulse:7", gain: 0.2, muted: false)])
        let back = h.call("nav", .setActive(false))
        #expect(Self.controls(back) == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])
        h.call("memo", .setCategory(.record))
        #expect(Self.controls(h.call("memo", .setActive(true))) == [.otherAudio(id: "pulse:7", gain: 0, muted: false)])
        #expect(h.engine.invariantViolations.isEmpty)
    }

    @Test("OA2, I4: muted while a non-mixable app session plays or a call is on; it never owns the route")
    func muted() throws {
        var h = try harness()
        h.system(.otherAudioStarted(Self.stream))
        h.call("music", .setCategory(.playback))
        #expect(Self.controls(h.call("music", .setActive(true))).isEmpty)  // active, not yet playing
        #expect(Self.controls(h.call("music", .startOutput)) == [.otherAudio(id: "pulse:7", gain: 1, muted: true)])
        #expect(Self.controls(h.call("music", .stopOutput)) == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])
        h.call("music", .setActive(false))
        #expect(h.engine.deviceStatus.routingOwner == nil)
        let call = h.system(.systemSession(.call, begin: true))
        #expect(Self.controls(call) == [.otherAudio(id: "pulse:7", gain: 1, muted: true)])
        #expect(
            Self.controls(h.system(.systemSession(.call, begin: false))) == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])
    }

    @Test(
        "OA5: while a non-mixable app session plays, other audio is muted, ducked or left alone as the device chose; calls, system sessions and recording are the same whatever it says",
        arguments: OtherAudioTreatment.allCases)
    func treatment(_ treatment: OtherAudioTreatment) throws {
        var h = try harness()
        h.engine.otherAudioTreatment = treatment
        h.system(.otherAudioStarted(Self.stream))
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        let expected: [OtherAudioTreatment: (gain: Double, muted: Bool)] = [
            .mute: (1, true), .duck: (0.2, false), .mix: (1, false),
        ]
        let playing = Self.controls(h.call("music", .startOutput))
        let (gain, muted) = expected[treatment]!
        #expect(playing == (treatment == .mix ? [] : [.otherAudio(id: "pulse:7", gain: gain, muted: muted)]))
        #expect(h.engine.deviceStatus.otherAudio.first?.isMuted == muted)
        h.call("music", .setActive(false))
        // A call (a VoIP app's session: playAndRecord, voiceChat) mutes other audio whatever OA5 says.
        h.call("memo", .setCategory(.playAndRecord, mode: .voiceChat))
        h.call("memo", .setActive(true))
        h.call("memo", .startOutput)
        #expect(h.engine.deviceStatus.otherAudio.first?.isMuted == true, "muted by the call")
        h.call("memo", .setActive(false))
        #expect(h.engine.deviceStatus.otherAudio.first?.isMuted == false)
        // I4: a system call too.
        #expect(Self.controls(h.system(.systemSession(.call, begin: true))) == [.otherAudio(id: "pulse:7", gain: 1, muted: true)])
        h.system(.systemSession(.call, begin: false))
        #expect(h.engine.invariantViolations.isEmpty)
    }

    @Test("OA5: a changed choice applies at once to the streams playing (a reloaded configuration), and tells no app")
    func treatmentChanged() throws {
        var h = try harness()
        h.system(.otherAudioStarted(Self.stream))
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        h.call("music", .startOutput)
        #expect(h.engine.deviceStatus.otherAudio.first?.isMuted == true)
        let effects = h.engine.setOtherAudioTreatment(.mix)
        #expect(effects == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])
        #expect(h.engine.setOtherAudioTreatment(.mix).isEmpty, "the same choice again changes nothing")
        #expect(h.engine.invariantViolations.isEmpty)
    }

    @Test("MS2: it survives a media-services reset, as device state does")
    func survivesReset() throws {
        var h = try harness()
        h.system(.otherAudioStarted(Self.stream))
        h.call("nav", .setCategory(.playback, options: .duckOthers))
        h.call("nav", .setActive(true))
        let reset = h.system(.mediaServicesReset)
        #expect(Self.controls(reset) == [.otherAudio(id: "pulse:7", gain: 1, muted: false)])  // nobody ducks now
        #expect(h.engine.deviceStatus.otherAudio.map(\.audio) == [Self.stream])
    }

    @Test(
        "Bad input is refused with -50 and changes nothing",
        arguments: [
            SystemEvent.otherAudioStarted(OtherAudio(id: "pulse:7")),  // already playing
            .otherAudioStarted(OtherAudio(id: "bad id")),
            .otherAudioStarted(OtherAudio(id: "x", name: "spoof\u{2028}line")),
            .otherAudioStarted(OtherAudio(id: "x", role: String(repeating: "r", count: 256))),
            .otherAudioStopped(id: "pulse:8"),
        ])
    func refused(event: SystemEvent) throws {
        var h = try harness()
        h.system(.otherAudioStarted(Self.stream))
        let before = h.engine
        let outcome = h.system(event)
        #expect(outcome.error?.code == .badParam)
        #expect(outcome.effects.isEmpty)
        #expect(h.engine == before)
    }
}
