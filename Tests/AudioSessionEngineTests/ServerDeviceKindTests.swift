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

    /// §9.1 on a sound server without an internal microphone: no phantom port. A session recording
    /// from it, with nothing else to record from, hears noSuitableRouteForCategory and its input
    /// stops (RT11, IO3); it comes back as a new device.
    @Test func theBuiltInMicrophoneIsListedOnlyWhenTheServerHasOne() throws {
        var h = try Harness(profile: .desktop, apps: [("memo", [])])
        h.call("memo", .setCategory(.playAndRecord))
        h.call("memo", .setActive(true))
        h.call("memo", .startInput)
        #expect(h.status("memo").currentRoute.inputs.map(\.type) == [.microphoneBuiltIn])
        let gone = h.engine.setBuiltInMicrophone(present: false)
        #expect(!h.engine.deviceStatus.inputs.contains { $0.type == .microphoneBuiltIn }, "no phantom microphone")
        #expect(h.status("memo").currentRoute.inputs.isEmpty && !h.status("memo").isInputRunning, "IO3")
        #expect(
            gone.contains {
                if case .notify("memo", .routeChange(.noSuitableRouteForCategory, _, _)) = $0 { true } else { false }
            }, "RT11: nothing left to record from: \(gone)")
        #expect(h.engine.setBuiltInMicrophone(present: false).isEmpty, "absent already: nothing")
        let back = h.engine.setBuiltInMicrophone(present: true)
        #expect(h.engine.deviceStatus.inputs.map(\.type) == [.microphoneBuiltIn])
        #expect(h.status("memo").currentRoute.inputs.map(\.type) == [.microphoneBuiltIn])
        #expect(
            back.contains {
                if case .notify("memo", .routeChange(.newDeviceAvailable, _, _)) = $0 { true } else { false }
            })
        // Back in its place: before an accessory plugged meanwhile.
        h.engine.setBuiltInMicrophone(present: false)
        h.step(.system(.plug(.usbInput, uid: "alsa_input.usb")))
        h.engine.setBuiltInMicrophone(present: true)
        #expect(h.engine.deviceStatus.inputs.map(\.uid) == ["built-in-mic", "alsa_input.usb"])
        #expect(h.status("memo").currentRoute.inputs.map(\.uid) == ["alsa_input.usb"], "the plugged microphone still wins")
        #expect(h.engine.invariantViolations.isEmpty)
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
