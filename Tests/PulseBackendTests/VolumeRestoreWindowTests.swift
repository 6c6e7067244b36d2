import Testing

@testable import PulseBackend

/// MS3: which devices of a returning server get the kept volumes, by time alone (no server).
@Suite("MS3: the restoring window")
struct VolumeRestoreWindowTests {
    let connected = ContinuousClock.now
    let window = PulseBackend.Restoring.window

    /// (A mutating call cannot be made inside `#expect`.)
    func restores(
        _ device: String, isSink: Bool, at now: ContinuousClock.Instant, in restoring: inout PulseBackend.Restoring
    ) -> Bool {
        restoring.restores(device, isSink: isSink, at: now)
    }

    @Test("MS3: a device first reported late in the window is restored for a whole window from its first report")
    func lateDeviceHasItsOwnWindow() {
        var restoring = PulseBackend.Restoring(connected: connected)
        let first = connected + window - .seconds(1)
        #expect(restores("speaker", isSink: true, at: first, in: &restoring))
        #expect(restores("speaker", isSink: true, at: first + window - .milliseconds(1), in: &restoring), "its own window")
        #expect(!restores("speaker", isSink: true, at: first + window, in: &restoring), "over at its own end")
        #expect(!restoring.isOver(at: first + window - .milliseconds(1)))
        #expect(restoring.isOver(at: first + window))
    }

    @Test("MS3: a device first reported after the window is the server's new one: its volume is taken, not written")
    func newDeviceIsNotRestored() {
        var restoring = PulseBackend.Restoring(connected: connected)
        #expect(!restores("usb-headset", isSink: true, at: connected + window, in: &restoring))
        #expect(restoring.isOver(at: connected + window))
    }

    @Test("MS3: once the server reports the kept volume back, the device is no longer restored; sinks and sources apart")
    func confirmedEndsIt() {
        var restoring = PulseBackend.Restoring(connected: connected)
        #expect(restores("speaker", isSink: true, at: connected, in: &restoring))
        restoring.confirmed[true, default: []].insert("speaker")
        #expect(!restores("speaker", isSink: true, at: connected + .seconds(1), in: &restoring))
        #expect(
            restores("speaker", isSink: false, at: connected + .seconds(1), in: &restoring),
            "a source of that name is another device")
    }
}
