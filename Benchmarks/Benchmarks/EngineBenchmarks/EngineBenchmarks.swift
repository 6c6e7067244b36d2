import AudioSessionEngine
import AudioSessionModel
import Benchmark
import Workloads

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
