import AudioSessionEngine
import Benchmark

/// A workload of 10 active apps: categories, activations, output, ducking, deactivations with
/// notify-others and the odd system event, cycled. Every step does real arbitration work.
enum Workload {
    static func steps(apps: [AppID]) -> [Step] {
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
    static func engine(registered: Int) -> (Engine, [Step]) {
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
enum RoutingWorkload {
    static func engine() -> Engine {
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

nonisolated(unsafe) let benchmarks: @Sendable () -> Void = {
    // One benchmark iteration = 1,000 engine steps; throughput is reported in K steps per second.
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3))

    for registered in [10, 10_000] {
        Benchmark("Engine steps, 10 active apps of \(registered) registered", configuration: configuration) { benchmark in
            var (engine, steps) = Workload.engine(registered: registered)
            var position = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(engine.apply(steps[position]))
                position = position + 1 == steps.count ? 0 : position + 1
            }
        }
    }

    // One iteration = one plug or unplug of a 20th accessory, with every route recomputed and
    // every route change sent (target: under 50 µs of engine time per plug).
    Benchmark(
        "Plug or unplug, 20 accessories and 100 apps",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(3))
    ) { benchmark in
        var engine = RoutingWorkload.engine()
        var plugged = false
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(engine.apply(.system(plugged ? .unplug(uid: "dock") : .plug(.usb, uid: "dock"))))
            plugged.toggle()
        }
    }
}
