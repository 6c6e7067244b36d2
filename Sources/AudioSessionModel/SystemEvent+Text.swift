/// SystemEvent's text syntax: a scenario's `system` step and the `audiosession system` command
/// without the word `system` — `call begin`, `plug usb uid=dock rate=44100`, `volume 0.5` (SCENARIOS.md).
extension SystemEvent {
    /// The verbs a system event starts with.
    package static let verbs = [
        "plug", "unplug", "silent", "lock", "unlock", "call", "alarm", "siri", "mic-mute", "volume", "input-gain", "wake",
        "media-services", "other-audio", "output-choice",
    ]

    /// Parses a system event written as text, e.g. `call begin` or `unplug headset-1`.
    /// - Throws: `TextSyntaxError` naming the column and what was expected there.
    public init(parsing text: String) throws(TextSyntaxError) {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let trimmed = text.drop(while: blank).reversed().drop(while: blank).reversed()
        var cursor = LineCursor(file: "system event", line: 1, text: Substring(String(trimmed)))
        self = try Self.parse(&cursor)
        try cursor.expectEnd()
    }

    /// `silent on|off`, `lock`, `call begin|end`, `volume V`, `media-services reset`, …
    package static func parse(_ cursor: inout LineCursor) throws(TextSyntaxError) -> SystemEvent {
        let verb = try cursor.next(oneOf: verbs, "a system verb")
        switch verb.text {
        case "plug":
            // `plug KIND [uid=UID] [rate=HZ]`, in that order.
            let kind = AccessoryKind(name: try cursor.next(oneOf: AccessoryKind.allCases.map(\.name), "an accessory kind").text)!
            var uid: String?
            var sampleRate: Double?
            if let argument = cursor.peek, argument.text.hasPrefix("uid=") {
                _ = try cursor.next("")
                guard Port.isValidUID(String(argument.text.dropFirst(4))) else {
                    throw cursor.error(expected: "uid=UID with UID of letters, digits and . _ : -", found: argument)
                }
                uid = String(argument.text.dropFirst(4))
            }
            if let argument = cursor.peek {
                _ = try cursor.next("")
                guard argument.text.hasPrefix("rate="), let rate = Double(argument.text.dropFirst(5)), rate.isFinite else {
                    throw cursor.error(expected: uid == nil ? "uid=UID or rate=HZ" : "rate=HZ", found: argument)
                }
                sampleRate = rate
            }
            return .plug(kind, uid: uid, sampleRate: sampleRate)
        case "unplug":
            let uid = try cursor.next("a UID")
            guard Port.isValidUID(uid.text) else {
                throw cursor.error(expected: "a UID of letters, digits and . _ : -", found: uid)
            }
            return .unplug(uid: uid.text)
        case "silent": return .silentSwitch(on: try cursor.next(oneOf: ["on", "off"], "on or off").text == "on")
        case "lock": return .lock
        case "unlock": return .unlock
        case "call", "alarm", "siri":
            let kind = SystemSessionKind.allCases.first { $0.description == verb.text }!
            return .systemSession(kind, begin: try cursor.next(oneOf: ["begin", "end"], "begin or end").text == "begin")
        case "mic-mute": return .microphoneMute(on: try cursor.next(oneOf: ["on", "off"], "on or off").text == "on")
        case "volume":
            let token = try cursor.next("a volume (a number)")
            guard let volume = TextNumber.parse(token.text) else {
                throw cursor.error(expected: "a volume (a number)", found: token)
            }
            return .outputVolume(volume)
        case "input-gain":  // HW6 from the device's side (beyond SCENARIOS.md): `input-gain UID G`
            let uid = try cursor.next("an input port's UID")
            guard Port.isValidUID(uid.text) else {
                throw cursor.error(expected: "a UID of letters, digits and . _ : -", found: uid)
            }
            let token = try cursor.next("a gain (a number)")
            guard let gain = TextNumber.parse(token.text) else { throw cursor.error(expected: "a gain (a number)", found: token) }
            return .inputGain(uid: uid.text, gain)
        case "wake": return .wake
        case "other-audio": return try parseOtherAudio(&cursor)
        case "output-choice": return try parseOutputChoice(&cursor)
        default:
            let action = try cursor.next(oneOf: ["reset", "lost"], "a media-services action")
            return action.text == "lost" ? .mediaServicesLost : .mediaServicesReset
        }
    }

    /// RT13: `output-choice UID|none` (SCENARIOS.md), the device-wide choice; with `app=APP`
    /// (beyond SCENARIOS.md) the user's choice for that app, as moving its stream in a mixer.
    private static func parseOutputChoice(_ cursor: inout LineCursor) throws(TextSyntaxError) -> SystemEvent {
        let port = try cursor.next("an output's UID or none")
        guard port.text == "none" || Port.isValidUID(port.text) else {
            throw cursor.error(expected: "an output's UID (letters, digits and . _ : -) or none", found: port)
        }
        let uid = port.text == "none" ? nil : port.text
        guard let argument = cursor.peek else { return .outputChoice(uid: uid) }
        _ = try cursor.next("")
        let app = argument.text.dropFirst(4)
        guard argument.text.hasPrefix("app="), !app.isEmpty, !app.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw cursor.error(expected: "app=APP", found: argument)
        }
        return .appOutputChoice(AppID(String(app)), uid: uid)
    }

    /// `other-audio start ID [role=ROLE] [name=NAME]`, `other-audio stop ID` (beyond SCENARIOS.md).
    private static func parseOtherAudio(_ cursor: inout LineCursor) throws(TextSyntaxError) -> SystemEvent {
        let action = try cursor.next(oneOf: ["start", "stop"], "an other-audio action")
        let id = try cursor.next("an id")
        guard Port.isValidUID(id.text) else { throw cursor.error(expected: "an id of letters, digits and . _ : -", found: id) }
        guard action.text == "start" else { return .otherAudioStopped(id: id.text) }
        var audio = OtherAudio(id: id.text)
        var seen: Set<String> = []
        while let token = cursor.peek {
            _ = try cursor.next("")
            let parts = token.text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, ["role", "name"].contains(parts[0]), !parts[1].isEmpty, seen.insert(parts[0]).inserted,
                OtherAudio.isValidLabel(parts[1])
            else { throw cursor.error(expected: "role=ROLE or name=NAME (each at most once)", found: token) }
            if parts[0] == "role" { audio.role = parts[1] } else { audio.name = parts[1] }
        }
        return .otherAudioStarted(audio)
    }
}

/// Numbers as scenario files and commands write them.
package enum TextNumber {
    /// Parses a decimal written as digits with an optional sign and fraction (no `inf`, `0x…`).
    package static func parse(_ text: String) -> Double? {
        var digits = text[...]
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return Double(text)
    }
}
