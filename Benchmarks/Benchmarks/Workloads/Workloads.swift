import AudioSessionEngine
import AudioSessionModel

/// A workload of 10 active apps: categories, activations, output, ducking, deactivations with
/// notify-others and the odd system event, cycled. Every step does real arbitration work.
public enum Workload {
    public static func steps(apps: [AppID]) -> [Step] {
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
        return steps
    }

    /// An engine with `registered` apps, the first 10 of which the workload drives.
    public static func engine(registered: Int) -> (Engine, [Step]) {
        var engine = Engine(profile: .iphone)
        var apps: [AppID] = []
        for index in 0..<registered {
            let app = AppID("com.example.app\(index)")
            try! engine.register(app, capabilities: [.backgroundAudio])
            if index < 10 { apps.append(app) }
        }
        return (engine, steps(apps: apps))
    }
}

/// 100 apps in a mix of configurations, 10 of them active, on an iphone with 19 accessories.
public enum RoutingWorkload {
    public static func engine() -> Engine {
        var engine = Engine(profile: .iphone)
        let configurations: [(Category, CategoryOptions)] = [
            (.playback, []), (.ambient, []), (.playAndRecord, .allowBluetooth), (.record, []),
            (.playAndRecord, [.allowBluetoothA2DP, .defaultToSpeaker]), (.multiRoute, .mixWithOthers),
            (.soloAmbient, []), (.playback, .mixWithOthers),
        ]
        for index in 0..<100 {
            let app = AppID("com.example.app\(index)")
            try! engine.register(app, capabilities: [.backgroundAudio])
            let (category, options) = configurations[index % configurations.count]
            _ = engine.apply(.app(app, .setCategory(category, options: options)))
            if index % 10 == 0 { _ = engine.apply(.app(app, .setActive(true))) }
        }
        let kinds: [AccessoryKind] = [.headphones, .usb, .bluetoothHeadset, .hdmi, .lineOut, .car, .headset, .airPlay]
        for index in 0..<19 { _ = engine.apply(.system(.plug(kinds[index % kinds.count]))) }
        return engine
    }
}
