import AudioSessionRuntime
import Testing

/// §18 CL1, CL2, CL5 as the runtime decides them, without a server: programs' streams in, calls
/// beginning and ending out, the time passed in.
@Suite("Calls of programs that never heard of us: who is in a call (CL1, CL2, CL5)")
struct CallDetectorTests {
    static let browser: CallDetector.Program = 4242
    static let facts = CallDetector.Facts(name: "Chromium", binary: "chromium")
    static func ms(_ value: UInt64) -> UInt64 { value * 1_000_000 }
    static let playback = CallDetector.StreamID(index: 12, isCapture: false)
    static let capture = CallDetector.StreamID(index: 7, isCapture: true)

    @Test("CL2: recording and playing at once for after-ms is a call; CL5: it ends hangover-ms after its last recording")
    func beginsAndEnds() {
        var detector = CallDetector(afterMs: 500, hangoverMs: 2000)
        #expect(detector.present(Self.playback, of: Self.browser, Self.facts, at: Self.ms(0)).isEmpty)
        #expect(detector.present(Self.capture, of: Self.browser, Self.facts, at: Self.ms(100)).isEmpty)
        #expect(detector.nextDeadline == Self.ms(600))
        #expect(detector.advance(to: Self.ms(599)).isEmpty)
        #expect(detector.advance(to: Self.ms(600)) == [.begin(Self.browser, Self.facts)])
        #expect(detector.advance(to: Self.ms(700)).isEmpty, "begun once")
        #expect(detector.streams(of: Self.browser) == [Self.playback, Self.capture])
        #expect(detector.removed(Self.capture, at: Self.ms(5000)).isEmpty)
        #expect(detector.nextDeadline == Self.ms(7000))
        #expect(detector.advance(to: Self.ms(6999)).isEmpty, "the hangover")
        #expect(detector.advance(to: Self.ms(7000)) == [.end(Self.browser)])
        #expect(!detector.isInCall(Self.browser))
    }

    @Test("CL5: a capture closed and reopened within the hangover keeps the call; the playback going away does not end it")
    func reopenWithinHangover() {
        var detector = CallDetector(afterMs: 500, hangoverMs: 2000)
        _ = detector.present(Self.playback, of: Self.browser, Self.facts, at: 0)
        _ = detector.present(Self.capture, of: Self.browser, Self.facts, at: 0)
        #expect(detector.advance(to: Self.ms(500)) == [.begin(Self.browser, Self.facts)])
        _ = detector.removed(Self.capture, at: Self.ms(1000))
        _ = detector.removed(Self.playback, at: Self.ms(1000))
        let again = CallDetector.StreamID(index: 8, isCapture: true)
        #expect(detector.present(again, of: Self.browser, Self.facts, at: Self.ms(2500)).isEmpty)
        #expect(detector.advance(to: Self.ms(10_000)).isEmpty, "still recording: still in the call")
        #expect(detector.removed(again, at: Self.ms(10_000)).isEmpty)
        #expect(detector.advance(to: Self.ms(12_000)) == [.end(Self.browser)])
    }

    @Test("CL2: flapping (capture on and off every 100 ms) never records for after-ms: no call")
    func flapping() {
        var detector = CallDetector(afterMs: 500, hangoverMs: 2000)
        _ = detector.present(Self.playback, of: Self.browser, Self.facts, at: 0)
        var actions: [CallDetector.Action] = []
        for cycle in UInt64(0)..<50 {
            let stream = CallDetector.StreamID(index: UInt32(100 + cycle), isCapture: true)
            actions += detector.present(stream, of: Self.browser, Self.facts, at: Self.ms(cycle * 200))
            actions += detector.advance(to: Self.ms(cycle * 200 + 99))
            actions += detector.removed(stream, at: Self.ms(cycle * 200 + 100))
        }
        #expect(actions.isEmpty)
    }

    @Test("CL1, CL5: a monitor's capture is no recording; a program that only records is no call")
    func monitorsAndRecordersAreNoCalls() {
        var detector = CallDetector()
        _ = detector.present(Self.playback, of: Self.browser, Self.facts, at: 0)
        _ = detector.present(Self.capture, of: Self.browser, Self.facts, isMonitor: true, at: 0)
        #expect(detector.advance(to: Self.ms(60_000)).isEmpty, "recording a monitor")
        let recorder: CallDetector.Program = 77
        _ = detector.present(
            CallDetector.StreamID(index: 9, isCapture: true), of: recorder, .init(name: "Recorder"), at: 0)
        #expect(detector.advance(to: Self.ms(60_000)).isEmpty, "recording alone")
        // The capture moved from the monitor to a real input: now it records.
        _ = detector.present(Self.capture, of: Self.browser, Self.facts, at: Self.ms(60_000))
        #expect(detector.advance(to: Self.ms(60_500)) == [.begin(Self.browser, Self.facts)])
        // And back to a monitor: it records nothing now, so the call ends after the hangover.
        _ = detector.present(Self.capture, of: Self.browser, Self.facts, isMonitor: true, at: Self.ms(61_000))
        #expect(detector.advance(to: Self.ms(63_000)) == [.end(Self.browser)])
    }

    @Test("CL3: the call is named as its playback names it, whichever stream came first")
    func namedByItsPlayback() {
        var detector = CallDetector()
        _ = detector.present(Self.capture, of: Self.browser, .init(name: "Chromium input", binary: "chromium"), at: 0)
        _ = detector.present(Self.playback, of: Self.browser, Self.facts, at: 0)
        #expect(detector.advance(to: Self.ms(500)) == [.begin(Self.browser, Self.facts)])
    }

    @Test("A program's streams are its own: another program's recording makes no call of this one's playback")
    func programsApart() {
        var detector = CallDetector()
        _ = detector.present(Self.playback, of: 1, .init(name: "Music"), at: 0)
        _ = detector.present(Self.capture, of: 2, .init(name: "Recorder"), at: 0)
        #expect(detector.advance(to: Self.ms(10_000)).isEmpty)
        #expect(detector.calls.isEmpty)
    }

    @Test(
        "CL4 (revision 7): once a program records, it counts as recording while it closes and reopens its capture within hangover-ms (its playback is not muted again in between); hangover-ms after its last capture it lapses, said once"
    )
    func recordingIsKeptThroughReopening() {
        var detector = CallDetector(afterMs: 500, hangoverMs: 2000)
        _ = detector.present(Self.playback, of: Self.browser, Self.facts, at: 0)
        #expect(!detector.isRecording(Self.browser, at: 0), "playing only")
        _ = detector.present(Self.capture, of: Self.browser, Self.facts, at: Self.ms(200))
        #expect(detector.isRecording(Self.browser, at: Self.ms(200)))
        // The capture closes after 100 ms (before after-ms: no call) and reopens 300 ms later.
        #expect(detector.removed(Self.capture, at: Self.ms(300)).isEmpty)
        #expect(detector.isRecording(Self.browser, at: Self.ms(400)), "closed a moment: still recording")
        #expect(detector.nextDeadline == Self.ms(2_300))
        let again = CallDetector.StreamID(index: 9, isCapture: true)
        _ = detector.present(again, of: Self.browser, Self.facts, at: Self.ms(600))
        #expect(detector.removed(again, at: Self.ms(700)).isEmpty)
        #expect(detector.advance(to: Self.ms(2_699)).isEmpty)
        #expect(detector.isRecording(Self.browser, at: Self.ms(2_699)))
        #expect(detector.advance(to: Self.ms(2_700)) == [.recordingLapsed(Self.browser)], "its playback is other audio again")
        #expect(!detector.isRecording(Self.browser, at: Self.ms(2_700)))
        #expect(detector.advance(to: Self.ms(9_000)).isEmpty, "said once")
    }
}
