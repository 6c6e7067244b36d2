import AudioSessionEngine
import AudioSessionModel

/// The engine driven by decoded steps (two bytes each) over four apps, checking after every
/// step: a failed step changed nothing (A7; A5 excepted) and the engine's own invariants hold
/// (`Engine.invariantViolations`: A2, I1, D4, RT7–RT10 and its bookkeeping).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var engine = Engine(profile: DeviceProfile.allCases[Int(bytes.first ?? 0) % DeviceProfile.allCases.count])
    let apps: [AppID] = ["music", "radio", "voip", "memo"]
    for (index, app) in apps.enumerated() {
        try! engine.register(app, capabilities: AppCapabilities(rawValue: UInt8(index % 4)))
    }
    var position = 1
    while position + 1 < bytes.count {
        let step = Steps.decode(bytes[position], bytes[position + 1], apps: apps)
        position += 2
        let before = engine
        let outcome = engine.apply(step)
        if let error = outcome.error, error.code != .isBusy {
            precondition(engine == before, "A7: \(step) failed with \(error) and changed the engine")
        }
        let violations = engine.invariantViolations
        precondition(violations.isEmpty, "\(violations) after \(step)")
        if case .departure(let app) = step, outcome.error == nil { try! engine.register(app) }
    }
    return 0
}

enum Steps {
    static let configurations: [(Category, Mode, CategoryOptions)] = [
        (.ambient, .default, []), (.soloAmbient, .default, []), (.playback, .default, []),
        (.playback, .spokenAudio, []), (.playback, .default, .mixWithOthers), (.playback, .default, .duckOthers),
        (.playback, .voicePrompt, .interruptSpokenAudioAndMixWithOthers), (.record, .default, []),
        (.playAndRecord, .voiceChat, []), (.playAndRecord, .default, [.mixWithOthers, .defaultToSpeaker]),
        (.audioProcessing, .default, []), (.multiRoute, .default, .mixWithOthers), (.playback, .voiceChat, []),
    ]

    static func decode(_ a: UInt8, _ b: UInt8, apps: [AppID]) -> Step {
        let app = apps[Int(a) % apps.count]
        let argument = Int(b)
        switch Int(a) / apps.count % 16 {
        case 0:
            let (category, mode, options) = configurations[argument % configurations.count]
            return .app(app, .setCategory(category, mode: mode, options: options))
        case 1: return .app(app, .setActive(true))
        case 2: return .app(app, .setActive(false, options: argument % 2 == 0 ? [] : .notifyOthersOnDeactivation))
        case 3: return .app(app, argument % 2 == 0 ? .startOutput : .stopOutput)
        case 4: return .app(app, argument % 2 == 0 ? .startInput : .stopInput)
        case 5: return .app(app, .setAppState(argument % 2 == 0 ? .background : .foreground))
        case 6: return .app(app, .requestRecordPermission)
        case 7: return .recordPermissionAnswer(app, granted: argument % 2 == 0)
        case 8: return .app(app, .overrideOutput(argument % 2 == 0 ? .speaker : .none))
        case 9: return .app(app, .setPreferredInput(["built-in-mic", "usb-1", "headset-1", "bt-hfp-1", "nope"][argument % 5]))
        case 10:
            let kind = AccessoryKind.allCases[argument % AccessoryKind.allCases.count]
            return argument & 0x80 == 0 ? .system(.plug(kind)) : .system(.unplug(uid: "\(kind.name)-1"))
        case 11:
            let kind = SystemSessionKind.allCases[argument % 3]
            return .system(.systemSession(kind, begin: argument & 0x80 == 0))
        case 12: return .system([.lock, .unlock, .wake, .silentSwitch(on: true), .silentSwitch(on: false)][argument % 5])
        case 13: return .system(.microphoneMute(on: argument % 2 == 0))
        case 14: return .app(app, .setPreferences([.sampleRate(Double([8000, 16000, 44100, 48000, 0][argument % 5]))]))
        default: return argument % 7 == 0 ? .system(.mediaServicesReset) : .departure(app)
        }
    }
}
