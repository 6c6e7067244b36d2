@testable import AudioSessionEngine
@testable import AudioSessionModel

/// Turns integers into engine steps, so a random integer array is a random step sequence.
enum RandomSteps {
    static let apps: [(AppID, AppCapabilities)] = [
        ("music", [.backgroundAudio, .nowPlaying]), ("radio", [.backgroundAudio]), ("game", []),
        ("voip", [.backgroundAudio]), ("memo", [.nowPlaying]),
    ]

    static let configurations: [(Category, Mode, CategoryOptions)] = [
        (.ambient, .default, []), (.ambient, .default, .duckOthers), (.soloAmbient, .default, []),
        (.playback, .default, []), (.playback, .spokenAudio, []), (.playback, .spokenAudio, .mixWithOthers),
        (.playback, .default, .duckOthers), (.playback, .voicePrompt, .interruptSpokenAudioAndMixWithOthers),
        (.record, .default, []), (.record, .default, .overrideMutedMicrophoneInterruption),
        (.playAndRecord, .voiceChat, []), (.playAndRecord, .default, [.mixWithOthers, .defaultToSpeaker]),
        (.playAndRecord, .default, .duckOthers), (.audioProcessing, .default, []),
        (.multiRoute, .default, .mixWithOthers), (.playback, .voiceChat, []), (.record, .default, .mixWithOthers),
    ]

    static func engine() -> Engine {
        var engine = Engine()
        for (app, capabilities) in apps { try! engine.register(app, capabilities: capabilities) }
        return engine
    }

    /// Applies the steps the values decode to, on a fresh engine, and hands each step to `check`
    /// with the engine before it, its outcome and the engine after it.
    static func replay(
        _ values: [Int], _ check: (_ before: Engine, _ step: Step, _ outcome: StepOutcome, _ after: Engine) -> Void
    ) {
        var engine = engine()
        for value in values {
            let before = engine
            let step = step(value)
            let outcome = engine.apply(step)
            check(before, step, outcome, engine)
            if case .departure(let app) = step, outcome.error == nil {
                // A new process of the same app connects again.
                try! engine.register(app, capabilities: apps.first { $0.0 == app }!.1)
            }
        }
    }

    static func step(_ value: Int) -> Step {
        let app = apps[value % apps.count].0
        let choice = value / apps.count
        switch choice % 20 {
        case 0, 1:
            let (category, mode, options) = configurations[(choice / 20) % configurations.count]
            return .app(app, .setCategory(category, mode: mode, options: options))
        case 2: return .app(app, .setMode(Mode.allCases[(choice / 20) % Mode.allCases.count]))
        case 3, 4: return .app(app, .setActive(true))
        case 5: return .app(app, .setActive(false, options: (choice / 20) % 2 == 0 ? [] : .notifyOthersOnDeactivation))
        case 6: return .app(app, .startOutput)
        case 7: return .app(app, .stopOutput)
        case 8: return .app(app, .startInput)
        case 9: return .app(app, .stopInput)
        case 10: return .app(app, .setAppState((choice / 20) % 2 == 0 ? .background : .foreground))
        case 11:
            switch (choice / 20) % 5 {
            case 0: return .app(app, .requestRecordPermission)
            case 1: return .app(app, .overrideOutput((choice / 80) % 2 == 0 ? .speaker : .none))
            case 2: return .app(app, .setPreferredInput(["built-in-mic", "usb-1", "headset-1", "bt-hfp-1"][(choice / 80) % 4]))
            case 3: return .app(app, .setInputDataSource(["Bottom", "Front", "Back", "Top"][(choice / 80) % 4]))
            default: return .app(app, .setPreferredInput(nil))
            }
        case 12: return .recordPermissionAnswer(app, granted: (choice / 20) % 2 == 0)
        case 13:
            let kind = SystemSessionKind.allCases[(choice / 20) % 3]
            return .system(.systemSession(kind, begin: (choice / 60) % 2 == 0))
        case 14: return .system((choice / 20) % 2 == 0 ? .lock : .unlock)
        case 15: return .system(.silentSwitch(on: (choice / 20) % 2 == 0))
        case 16: return .system(.microphoneMute(on: (choice / 20) % 2 == 0))
        case 17:
            switch (choice / 20) % 4 {
            case 0: return .system(.outputVolume(Double((choice / 80) % 12) / 10))
            case 1: return .app(app, .setInputGain(Double((choice / 80) % 12) / 10))
            case 2:
                return .app(app, .setPreferences([.sampleRate(Double([8000, 16000, 44100, 96000, 200_000][(choice / 80) % 5]))]))
            default: return .app(app, .setPreferences([.inputChannels((choice / 80) % 4), .outputChannels((choice / 320) % 10)]))
            }
        case 18:
            let kind = AccessoryKind.allCases[(choice / 20) % AccessoryKind.allCases.count]
            return (choice / 220) % 2 == 0
                ? .system(.plug(kind)) : .system(.unplug(uid: "\(kind.name)-\((choice / 440) % 3 + 1)"))
        default:
            switch (choice / 20) % 10 {
            case 0: return .system(.mediaServicesReset)
            case 1: return .system(.wake)
            case 2: return .departure(app)
            case 3: return .system(.otherAudioStarted(OtherAudio(id: "pulse:\((choice / 200) % 3)", role: "music")))
            case 4: return .system(.otherAudioStopped(id: "pulse:\((choice / 200) % 3)"))
            case 5:  // RT13 (a)
                return .system(
                    .outputChoice(uid: [nil, "built-in-speaker", "headphones-1", "usb-1", "hdmi-1"][(choice / 200) % 5]))
            case 6:  // RT13 (b)
                return .system(
                    .appOutputChoice(app, uid: [nil, "built-in-speaker", "headphones-1", "bt-a2dp-1"][(choice / 200) % 4]))
            default: return .app(app, .setActive(true))
            }
        }
    }
}
