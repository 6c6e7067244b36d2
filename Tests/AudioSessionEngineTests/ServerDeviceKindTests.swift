import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

/// The one-direction accessory kinds a sound server's sinks and sources map to (beyond §9.1).
@Suite struct ServerDeviceKindTests {
    @Test func aWiredMicrophoneAloneIsAnInputOnly() throws {
        var h = try Harness(apps: [("memo", [])])
        h.call("memo", .setCategory(.playAndRecord))
        h.call("memo", .setActive(true))
        let outcome = h.step(.system(.plug(.wiredMicrophone, uid: "alsa_input.headset")))
        #expect(outcome.error == nil)
        let route = h.status("memo").currentRoute
        #expect(route.inputs.map(\.type) == [.microphoneWired])  // RT3: the newest input wins
        #expect(route.outputs.map(\.type) == [.receiver])  // no output came with it
        #expect(
            outcome.notifications(of: "memo").contains {
                if case .routeChange(.newDeviceAvailable, _, _) = $0 { true } else { false }
            })
    }

    @Test func usbOutputAndInputArePluggedApart() throws {
        var h = try Harness(apps: [("music", [])])
        h.call("music", .setCategory(.playback))
        h.call("music", .setActive(true))
        #expect(h.step(.system(.plug(.usbOutput, uid: "alsa_output.usb"))).error == nil)
        #expect(h.status("music").currentRoute.outputs.map(\.uid) == ["alsa_output.usb"])
        #expect(h.step(.system(.plug(.usbInput, uid: "alsa_input.usb"))).error == nil)
        #expect(h.step(.system(.unplug(uid: "alsa_output.usb"))).error == nil)
        #expect(h.status("music").currentRoute.outputs.map(\.type) == [.speaker])
        #expect(AccessoryKind(name: "wired-mic") == .wiredMicrophone)
        #expect(AccessoryKind(name: "usb-in") == .usbInput)
    }

    /// HW6 from the device's side: a server's source volume becomes its port's gain; nobody is
    /// told (HW6 has no notification); the gains of every input read back by UID.
    @Test func theDeviceSetsAnInputPortsGainWithoutANotification() throws {
        var h = try Harness(apps: [("memo", [])])
        h.call("memo", .setCategory(.playAndRecord))
        h.call("memo", .setActive(true))
        #expect(h.step(.system(.plug(.wiredMicrophone, uid: "alsa_input.headset"))).error == nil)
        let outcome = h.system(.inputGain(uid: "alsa_input.headset", 0.4))
        #expect(outcome.error == nil)
        #expect(outcome.effects.isEmpty)
        #expect(h.status("memo").inputGain == 0.4)
        #expect(h.engine.inputGains["alsa_input.headset"] == 0.4)
        #expect(h.engine.inputGains["built-in-mic"] == 1)
        let unknown = h.system(.inputGain(uid: "alsa_output.usb", 0.4))
        #expect(unknown.error?.code == .badParam)
        #expect(unknown.error?.message.contains("alsa_input.headset") == true)  // names the inputs there are
        #expect(h.system(.inputGain(uid: "alsa_input.headset", 1.5)).error?.code == .badParam)
        #expect(h.engine.inputGains["alsa_input.headset"] == 0.4)  // nothing half-changed
    }
}
