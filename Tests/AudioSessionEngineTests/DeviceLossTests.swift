import AudioSessionModel
import Testing

@testable import AudioSessionEngine

/// PL8 (revision 5): a player's session playing through a private device that goes away has its
/// output stopped in that same step (its streams muted until it pauses); other sessions, a
/// player on the speaker, one not playing or with PL8 turned off keep theirs.
@Suite("PL8: headphones out, a player's output stops")
struct DeviceLossTests {
    static func playing(_ h: inout Harness, _ app: AppID) {
        h.call(app, .setCategory(.playback, options: .mixWithOthers))
        h.call(app, .setActive(true))
        h.call(app, .startOutput)
    }

    static func stopsOutput(_ outcome: StepOutcome, _ app: AppID) -> Bool {
        outcome.effects.contains { if case .stopIO(app, output: true, _) = $0 { true } else { false } }
    }

    @Test("PL8: a player on headphones, Bluetooth or USB that go away stops output, with its route change, in one step")
    func privateOutputsLost() throws {
        for kind in [AccessoryKind.headphones, .bluetoothA2DP, .usbOutput] {
            var h = try Harness(profile: .desktop, apps: [("mpris.mpv", []), ("game", [])])
            h.engine.setPausesOnDeviceLoss("mpris.mpv", true)
            Self.playing(&h, "mpris.mpv")
            Self.playing(&h, "game")
            h.step(.system(.plug(kind, uid: "private")))
            #expect(h.status("mpris.mpv").isOutputRunning)
            let unplugged = h.step(.system(.unplug(uid: "private")))
            #expect(Self.stopsOutput(unplugged, "mpris.mpv"), "\(kind): its output stopped")
            #expect(
                unplugged.notifications(of: "mpris.mpv").contains {
                    if case .routeChange(.oldDeviceUnavailable, _, _) = $0 { true } else { false }
                })
            #expect(!h.status("mpris.mpv").isOutputRunning && h.status("mpris.mpv").isActive)
            #expect(!Self.stopsOutput(unplugged, "game") && h.status("game").isOutputRunning, "an app is no player")
            #expect(!Self.stopsOutput(h.step(.system(.plug(kind, uid: "private"))), "mpris.mpv"))
            #expect(!h.status("mpris.mpv").isOutputRunning, "nothing resumes it when the device comes back")
            #expect(h.engine.invariantViolations.isEmpty)
        }
    }

    @Test("PL8: a player on the speaker, a player turned off, or the speaker's loss: nothing stops")
    func nothingElseStops() throws {
        var h = try Harness(profile: .desktop, apps: [("mpris.mpv", []), ("mpris.vlc", [])])
        h.engine.setPausesOnDeviceLoss("mpris.mpv", true)
        h.engine.setPausesOnDeviceLoss("mpris.vlc", false)
        Self.playing(&h, "mpris.mpv")
        Self.playing(&h, "mpris.vlc")
        h.step(.system(.plug(.hdmi, uid: "monitor")))
        let hdmi = h.step(.system(.unplug(uid: "monitor")))
        #expect(!Self.stopsOutput(hdmi, "mpris.mpv"), "HDMI is no private device")
        h.step(.system(.plug(.headphones, uid: "phones")))
        let unplugged = h.step(.system(.unplug(uid: "phones")))
        #expect(Self.stopsOutput(unplugged, "mpris.mpv"))
        #expect(!Self.stopsOutput(unplugged, "mpris.vlc") && h.status("mpris.vlc").isOutputRunning, "policy off")
    }
}
