import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

@Suite("Categories, options and modes (SPEC §1–3)")
struct CategoryTests {
    @Test("C8: a new session is soloAmbient, default mode, no options, inactive")
    func newSessionDefaults() throws {
        var engine = Engine()
        try engine.register("a")
        let status = try #require(engine.status(of: "a"))
        #expect(status.category == .soloAmbient)
        #expect(status.mode == .default)
        #expect(status.categoryOptions == [])
        #expect(!status.isActive)
    }

    @Test("§2: option raw values are SPEC's; interruptSpoken… contains mixWithOthers")
    func optionRawValues() {
        #expect(CategoryOptions.mixWithOthers.rawValue == 0x1)
        #expect(CategoryOptions.duckOthers.rawValue == 0x2)
        #expect(CategoryOptions.allowBluetooth.rawValue == 0x4)
        #expect(CategoryOptions.defaultToSpeaker.rawValue == 0x8)
        #expect(CategoryOptions.interruptSpokenAudioAndMixWithOthers.rawValue == 0x11)
        #expect(CategoryOptions.allowBluetoothA2DP.rawValue == 0x20)
        #expect(CategoryOptions.allowAirPlay.rawValue == 0x40)
        #expect(CategoryOptions.overrideMutedMicrophoneInterruption.rawValue == 0x80)
        #expect(CategoryOptions.interruptSpokenAudioAndMixWithOthers.contains(.mixWithOthers))
    }

    @Test("O1: a bit no option covers is refused with -50 and nothing changes")
    func unknownOptionBits() throws {
        var harness = try Harness(apps: [("a", [])])
        let before = harness.engine
        for raw: UInt32 in [0x10, 0x100, 0x8000_0000] {
            let outcome = harness.call("a", .setCategory(.playback, options: CategoryOptions(rawValue: raw)))
            #expect(outcome.error?.code == .badParam)
            #expect(outcome.error?.message.hasPrefix("O1") == true)
            #expect(outcome.effects.isEmpty)
        }
        #expect(harness.engine == before)
    }

    @Test("O1, M1: every option and mode is checked against SPEC's tables", arguments: Category.allCases)
    func validityTables(category: Category) throws {
        let validOptions: [Category: CategoryOptions] = [
            .ambient: [.mixWithOthers, .duckOthers, .allowBluetoothA2DP, .allowAirPlay],
            .soloAmbient: [.allowBluetoothA2DP, .allowAirPlay],
            .playback: [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetoothA2DP, .allowAirPlay],
            .record: [.allowBluetooth, .overrideMutedMicrophoneInterruption],
            .playAndRecord: CategoryOptions.known,
            .audioProcessing: [],
            .multiRoute: [
                .mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .overrideMutedMicrophoneInterruption,
            ],
        ]
        for (name, option) in CategoryOptions.named {
            var harness = try Harness(apps: [("a", [])])
            let error = harness.call("a", .setCategory(category, options: option)).error
            #expect((error == nil) == validOptions[category]!.isSuperset(of: option), "\(name) with \(category)")
        }
        let validModes: [Mode: [Category]] = [
            .voiceChat: [.playAndRecord], .gameChat: [.playAndRecord], .videoChat: [.playAndRecord, .record],
            .videoRecording: [.playAndRecord, .record], .measurement: [.playback, .record, .playAndRecord],
            .moviePlayback: [.playback], .spokenAudio: [.playback], .voicePrompt: [.playback, .playAndRecord],
        ]
        for mode in Mode.allCases {
            var harness = try Harness(apps: [("a", [])])
            let error = harness.call("a", .setCategory(category, mode: mode)).error
            let valid = mode == .default || validModes[mode]!.contains(category)
            #expect((error == nil) == valid, "\(mode) with \(category)")
            if let error { #expect(error.message.hasPrefix("M1")) }
        }
    }

    @Test("M2: implied options are reported and route like set ones")
    func modeImpliedOptions() throws {
        var harness = try Harness(apps: [("a", [])])
        harness.call("a", .setCategory(.playAndRecord, mode: .videoChat))
        #expect(harness.status("a").categoryOptions == [.allowBluetooth, .defaultToSpeaker])
        #expect(harness.status("a").currentRoute.outputs.map(\.type) == [.speaker])
        harness.call("a", .setCategory(.record, mode: .videoChat))
        #expect(harness.status("a").categoryOptions == [.allowBluetooth])
    }

    @Test("C12: hardware codec availability depends on the configuration only")
    func hardwareCodec() throws {
        var harness = try Harness(apps: [("a", [])])
        let expected: [(Category, CategoryOptions, Bool)] = [
            (.soloAmbient, [], true), (.playback, [], true), (.playAndRecord, [], true), (.audioProcessing, [], true),
            (.ambient, [], false), (.record, [], false), (.multiRoute, [], false),
            (.playback, .mixWithOthers, false), (.playback, .duckOthers, false),
            (.playAndRecord, .interruptSpokenAudioAndMixWithOthers, false),
        ]
        for (category, options, available) in expected {
            harness.call("a", .setCategory(category, options: options))
            #expect(harness.status("a").isHardwareCodecAvailable == available, "\(category) \(options)")
        }
    }
}
