import AudioSessionModel
import Testing

/// SystemEvent's text syntax, shared by scenarios, the `audiosession system` command and the C
/// API's simulation entry point.
@Suite("SystemEvent(parsing:)")
struct SystemEventTextTests {
    @Test(
        "Every verb",
        arguments: [
            ("call begin", SystemEvent.systemSession(.call, begin: true)),
            ("siri end", .systemSession(.siri, begin: false)),
            ("plug usb uid=dock", .plug(.usb, uid: "dock")),
            ("plug headphones", .plug(.headphones)),
            ("plug usb uid=dac rate=44100", .plug(.usb, uid: "dac", sampleRate: 44100)),  // HW1: the device's own rate
            ("plug usb rate=16000", .plug(.usb, sampleRate: 16000)),
            ("unplug headset-1", .unplug(uid: "headset-1")),
            ("silent on", .silentSwitch(on: true)),
            ("lock", .lock),
            ("unlock", .unlock),
            ("mic-mute off", .microphoneMute(on: false)),
            ("volume 0.5", .outputVolume(0.5)),
            ("input-gain built-in-mic 0.25", .inputGain(uid: "built-in-mic", 0.25)),
            ("wake", .wake),
            ("media-services reset", .mediaServicesReset),
            ("  call end \r", .systemSession(.call, begin: false)),
        ])
    func parses(text: String, event: SystemEvent) throws {
        #expect(try SystemEvent(parsing: text) == event)
    }

    @Test(
        "Bad input names the column and what was expected",
        arguments: [
            ("call maybe", 6, "expected begin or end (begin end), found 'maybe'"),
            ("plug toaster", 6, "expected an accessory kind"),
            ("volume loud", 8, "expected a volume (a number), found 'loud'"),
            ("volume 0x1", 8, "expected a volume (a number)"),
            ("lock now", 6, "expected end of line, found 'now'"),
            ("", 1, "expected a system verb"),
            ("unplug bad/uid", 8, "expected a UID of letters, digits and . _ : -"),
            ("plug usb rate=fast", 10, "expected uid=UID or rate=HZ, found 'rate=fast'"),
            ("plug usb uid=dac 44100", 18, "expected rate=HZ, found '44100'"),
            ("plug usb rate=44100 uid=dac", 21, "expected end of line, found 'uid=dac'"),
        ])
    func refuses(text: String, column: Int, message: String) {
        #expect {
            _ = try SystemEvent(parsing: text)
        } throws: { error in
            guard let error = error as? TextSyntaxError else { return false }
            return error.column == column && error.message.hasPrefix(message)
        }
    }
}
