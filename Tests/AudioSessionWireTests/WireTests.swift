import AudioSessionEngine
import AudioSessionModel
import PropertyBased
import Testing

@testable import AudioSessionWire

/// Messages that cover every case of the protocol, for round trips and truncation.
enum Samples {
    static let route = Route(
        inputs: [
            Port(type: .microphoneBuiltIn, uid: "built-in-mic", name: "iPhone Microphone", dataSources: ["Bottom", "Front"])
        ],
        outputs: [Port(type: .headphones, uid: "headphones-1", name: "Headphones")])

    static var status: SessionStatus {
        var engine = Engine()
        try! engine.register("music")
        _ = engine.apply(.app("music", .setCategory(.playAndRecord, mode: .voiceChat, options: .allowBluetooth)))
        _ = engine.apply(.app("music", .setPreferences([.sampleRate(16000), .inputChannels(1)])))
        return engine.status(of: "music")!
    }

    static let calls: [AppCall] = [
        .setCategory(.playback, mode: .spokenAudio, options: [.mixWithOthers, .duckOthers]), .setMode(.voiceChat),
        .setActive(true), .setActive(false, options: .notifyOthersOnDeactivation), .startOutput, .stopOutput,
        .startInput, .stopInput, .setAppState(.background), .setAppState(.foreground), .requestRecordPermission,
        .overrideOutput(.speaker), .overrideOutput(.none), .setPreferredInput("usb-1"), .setPreferredInput(nil),
        .setInputDataSource("Front"),
        .setPreferences([.sampleRate(44100), .ioBufferDuration(0.005), .inputChannels(2), .outputChannels(6)]),
        .setInputGain(0.5),
    ]

    static let events: [SystemEvent] = [
        .silentSwitch(on: true), .lock, .unlock, .systemSession(.call, begin: true), .systemSession(.siri, begin: false),
        .microphoneMute(on: true), .outputVolume(0.3), .plug(.headset), .plug(.usb, uid: "usb-x"),
        .unplug(uid: "headset-1"), .wake, .mediaServicesReset, .inputGain(uid: "headset-1", 0.25),
        .otherAudioStarted(OtherAudio(id: "pulse:7", name: "Firefox", role: "music")), .otherAudioStarted(OtherAudio(id: "x")),
        .otherAudioStopped(id: "pulse:7"), .outputChoice(uid: "hdmi-1"), .outputChoice(uid: nil),
        .appOutputChoice(AppID("com.example.music"), uid: "built-in-speaker"), .appOutputChoice(AppID("a"), uid: nil),
    ]

    static let notifications: [SessionNotification] = [
        .interruptionBegan(reason: .default), .interruptionBegan(reason: .builtInMicMuted),
        .interruptionEnded(shouldResume: true), .routeChange(reason: .oldDeviceUnavailable, previous: route, current: Route()),
        .silenceSecondaryAudioHint(.begin), .mediaServicesLost, .mediaServicesReset, .outputVolume(0.25),
        .recordPermission(granted: false),
    ]

    static var clientMessages: [ClientMessage] {
        var messages: [ClientMessage] = [
            .hello(Hello(role: .app("com.example.music", [.backgroundAudio, .nowPlaying]))),
            .hello(Hello(role: .controller)), .hello(Hello(version: 9, role: .monitor)),
        ]
        let requests: [Request] =
            calls.map(Request.call) + events.map(Request.system)
            + [
                .status, .ping, .answerPermission("memo", granted: true), .deviceStatus, .subscribe,
                .reset(.desktop, duckLevel: 0.3),
            ]
        for (id, request) in requests.enumerated() { messages.append(.request(id: UInt32(id) * 7919, request)) }
        return messages
    }

    static var serverMessages: [ServerMessage] {
        var engine = Engine()
        try! engine.register("music")
        _ = engine.apply(.app("music", .setActive(true)))
        _ = engine.apply(.system(.otherAudioStarted(OtherAudio(id: "pulse:3", name: "mpv", role: "video"))))
        let snapshot = DeviceSnapshot(
            device: engine.deviceStatus,
            apps: [AppSnapshot(app: "music", pid: 42, uid: 1000, status: engine.status(of: "music")!)],
            violations: ["A2: more than one active non-mixable session: [music, maps]"])
        var messages: [ServerMessage] = [
            .welcome(version: 1, daemonPID: 1234), .reply(id: 1, .done),
            .reply(id: 2, .failed(SessionError(.cannotInterruptOthers, "A4: …"))), .reply(id: 3, .status(status)),
            .reply(id: 4, .device(snapshot)), .closing(SessionError(.missingEntitlement, "not a system controller")),
            .event(.outputGain(0.2)), .event(.stopIO(output: true, input: false)), .event(.permissionPrompt("memo")),
        ]
        for (n, notification) in notifications.enumerated() {
            messages.append(.event(.notification(sequence: UInt64(n), notification)))
            messages.append(.event(.observed(sequence: UInt64(n), time: 1_700_000_000_000_000_000, app: "maps", notification)))
        }
        return messages
    }
}

@Suite("Wire protocol")
struct WireTests {
    @Test func everyClientMessageRoundTrips() throws {
        for message in Samples.clientMessages {
            #expect(try ClientMessage(decoding: message.encoded()) == message)
        }
    }

    @Test func everyServerMessageRoundTrips() throws {
        for message in Samples.serverMessages {
            #expect(try ServerMessage(decoding: message.encoded()) == message)
        }
    }

    @Test("A fan-out's payloads, its notification encoded once, are byte for byte each message's own")
    func notificationFramesMatchTheEncoding() {
        var frames = NotificationFrames()
        // Each sample twice in a row (with another sequence number), as a fan-out sends it.
        for (index, message) in Samples.serverMessages.enumerated() {
            var again = message
            if case .event(.notification(_, let notification)) = message {
                again = .event(.notification(sequence: UInt64(index) * 1_000_003, notification))
            }
            for message in [message, again] { #expect(frames.payload(message) == message.encoded(), "\(message)") }
        }
    }

    @Test func everyTruncationAndEveryExtraByteIsAnError() {
        for message in Samples.clientMessages.map({ $0.encoded() }) {
            for length in 0..<message.count {
                #expect(throws: WireError.self) { try ClientMessage(decoding: Array(message.prefix(length))) }
            }
            #expect(throws: WireError.self) { try ClientMessage(decoding: message + [0]) }
        }
        for message in Samples.serverMessages.map({ $0.encoded() }) {
            for length in 0..<message.count {
                #expect(throws: WireError.self) { try ServerMessage(decoding: Array(message.prefix(length))) }
            }
            #expect(throws: WireError.self) { try ServerMessage(decoding: message + [0]) }
        }
    }

    @Test func errorsNameTheField() {
        #expect(throws: WireError(.unknownTag, "client message: no case 9")) { try ClientMessage(decoding: [9]) }
        #expect(throws: WireError(.badValue, "app id: an app id must not be empty")) {
            try ClientMessage(decoding: [0, 0, 1, 0, 0, 0, 0, 0, 0])
        }
        let nan = ClientMessage.request(id: 1, .call(.setInputGain(.nan))).encoded()
        #expect(throws: WireError(.badValue, "input gain: nan is not a finite number")) { try ClientMessage(decoding: nan) }
        // A count of 2^32-1 strings with 4 bytes left is refused before anything is allocated.
        let huge: [UInt8] = [1, 0, 0, 0, 1, 0, 12, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: WireError.self) { try ClientMessage(decoding: huge) }
    }

    @Test("The decoder is total: random bytes give a message or an error")
    func randomBytesNeverCrash() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...255).array(of: 0...80)) { values in
            let bytes = values.map(UInt8.init)
            _ = try? ClientMessage(decoding: bytes)
            _ = try? ServerMessage(decoding: bytes)
        }
    }

    @Test("Mutated valid messages give a message or an error")
    func mutatedMessagesNeverCrash() async {
        let messages = Samples.clientMessages.map { $0.encoded() } + Samples.serverMessages.map { $0.encoded() }
        await propertyCheck(count: 2000, input: Gen.int(in: 0...10_000), Gen.int(in: 0...255).array(of: 1...4)) { pick, noise in
            var bytes = messages[pick % messages.count]
            for (n, byte) in noise.enumerated() { bytes[(pick / 7 + n * 13) % bytes.count] = UInt8(byte) }
            _ = try? ClientMessage(decoding: bytes)
            _ = try? ServerMessage(decoding: bytes)
        }
    }
}

@Suite("Tag tables")
struct TagTableTests {
    /// The numbers docs/protocol.md gives, against the one table each enum has.
    @Test("Tags are the protocol's numbers, and the byte after each table is refused")
    func tagsAreTheDocumentedNumbers() throws {
        #expect(CallTag.setInputGain.rawValue == 13 && CallTag.allCases.count == 14)
        #expect(SystemEventTag.inputGain.rawValue == 10 && SystemEventTag.otherAudioStopped.rawValue == 12)
        #expect(SystemEventTag.mediaServicesLost.rawValue == 13 && SystemEventTag.appOutputChoice.rawValue == 15)
        #expect(RequestTag.reset.rawValue == 7 && ReplyTag.device.rawValue == 3 && EventTag.permissionPrompt.rawValue == 4)
        #expect(NotificationTag.recordPermission.rawValue == 7 && ServerMessageTag.closing.rawValue == 3)
        // A request for a system event: message tag 1, id, request tag 3, event tag 8 (wake).
        #expect(ClientMessage.request(id: 1, .system(.wake)).encoded() == [1, 0, 0, 0, 1, 3, 8])
        #expect(throws: WireError(.unknownTag, "system event: no case 16")) {
            try ClientMessage(decoding: [1, 0, 0, 0, 1, 3, UInt8(SystemEventTag.allCases.count)])
        }
        #expect(throws: WireError(.unknownTag, "app call: no case 14")) {
            try ClientMessage(decoding: [1, 0, 0, 0, 1, 0, UInt8(CallTag.allCases.count)])
        }
    }
}

@Suite("Framing")
struct FrameTests {
    @Test func framesSurviveAnySplitOfTheStream() async {
        let payloads = Samples.serverMessages.map { $0.encoded() }
        let stream = payloads.flatMap(Frame.encode)
        await propertyCheck(count: 200, input: Gen.int(in: 1...200).array(of: 1...40)) { cuts in
            var decoder = FrameDecoder()
            var received: [[UInt8]] = []
            var offset = 0
            var cut = 0
            while offset < stream.count {
                let size = cuts[cut % cuts.count]
                cut += 1
                decoder.append(stream[offset..<min(stream.count, offset + size)])
                offset += size
                while let payload = try? decoder.next() { received.append(payload) }
            }
            #expect(received == payloads)
            #expect(decoder.bufferedCount == 0)
        }
    }

    @Test func anOversizedFrameIsRefusedFromItsHeader() throws {
        var decoder = FrameDecoder()
        decoder.append([0x00, 0x10, 0x00, 0x01])  // 1 MiB + 1
        #expect(throws: WireError(.oversized, "a frame of 1048577 bytes is above the maximum of 1048576")) {
            try decoder.next()
        }
        var exact = FrameDecoder()
        exact.append([0x00, 0x10, 0x00, 0x00])
        #expect(try exact.next() == nil)  // the largest allowed frame waits for its payload
    }
}
