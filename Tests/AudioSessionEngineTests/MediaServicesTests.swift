import AudioSessionModel
import Testing

@testable import AudioSessionEngine

/// MS1, MS2, MS3 in the engine: a loss and a return as two steps (the sound server went away
/// and came back), beside MS2's simulated reset in one step.
@Suite("Media services lost and back (MS3)")
struct MediaServicesTests {
    @Test("MS1, MS3: the loss tells every app lost and nothing else, stops its I/O, and calls fail with msrv")
    func lost() throws {
        var h = try Harness(apps: [("music", .backgroundAudio), ("game", [])])
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        h.call("music", .startOutput)
        h.call("game", .setCategory(.ambient))
        let loss = h.system(.mediaServicesLost)
        #expect(loss.notifications(of: "music") == [.mediaServicesLost])
        #expect(loss.notifications(of: "game") == [.mediaServicesLost])
        #expect(loss.effects.contains(.stopIO("music", output: true, input: false)))
        #expect(h.engine.mediaServicesLost && !h.status("music").isActive)

        let refused = h.call("music", .setActive(true))
        #expect(refused.error?.code == .mediaServicesFailed && refused.effects.isEmpty)
        #expect(h.call("game", .setAppState(.background)).error == nil, "the app state is the device shell's, kept")
        // The server's devices leave and come: apps hear nothing while lost.
        #expect(h.system(.plug(.headphones)).notifications.isEmpty)
        #expect(h.system(.outputVolume(0.3)).notifications.isEmpty)
        #expect(h.system(.mediaServicesLost).effects.isEmpty, "a second loss changes nothing")
    }

    @Test("MS2 after MS3: the return tells only reset; calls work again; device state survived")
    func back() throws {
        var h = try Harness(apps: [("music", .backgroundAudio)])
        h.call("music", .setCategory(.playback))
        h.system(.mediaServicesLost)
        h.system(.outputVolume(0.3))
        let reset = h.system(.mediaServicesReset)
        #expect(reset.notifications(of: "music") == [.mediaServicesReset])
        #expect(!h.engine.mediaServicesLost)
        #expect(h.status("music").category == .soloAmbient, "C8 defaults")
        #expect(h.status("music").outputVolume == 0.3, "device state changed while lost stays")
        #expect(h.call("music", .setActive(true)).error == nil)
        // A simulated reset (MS2) still tells both in one step.
        #expect(h.system(.mediaServicesReset).notifications(of: "music") == [.mediaServicesLost, .mediaServicesReset])
    }
}
