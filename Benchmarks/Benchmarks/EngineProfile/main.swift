import AudioSessionEngine

// A plain loop over the benchmark workload, for profilers (valgrind --tool=callgrind).
var engine = Engine(profile: .iphone)
var apps: [AppID] = []
let registered = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 10
for index in 0..<registered {
    let app = AppID("com.example.app\(index)")
    try! engine.register(app, capabilities: [.backgroundAudio])
    if index < 10 { apps.append(app) }
}
let configurations: [(Category, CategoryOptions)] = [
    (.playback, []), (.ambient, []), (.playback, .duckOthers), (.soloAmbient, []),
    (.playAndRecord, .defaultToSpeaker), (.playback, .mixWithOthers), (.record, []), (.playback, []),
    (.ambient, .duckOthers), (.multiRoute, .mixWithOthers),
]
var steps: [Step] = []
for round in 0..<4 {
    for (index, app) in apps.enumerated() {
        let (category, options) = configurations[(index + round) % configurations.count]
        steps.append(.app(app, .setCategory(category, options: options)))
        steps.append(.app(app, .setActive(true)))
        if category.hasOutput { steps.append(.app(app, .startOutput)) }
    }
    steps.append(.system(.systemSession(.alarm, begin: true)))
    steps.append(.system(.systemSession(.alarm, begin: false)))
    for app in apps {
        steps.append(.app(app, .stopOutput))
        steps.append(.app(app, .setActive(false, options: .notifyOthersOnDeactivation)))
    }
}
var effects = 0
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000
for position in 0..<count {
    effects &+= engine.apply(steps[position % steps.count]).effects.count
}
print("\(count) steps, \(effects) effects")
