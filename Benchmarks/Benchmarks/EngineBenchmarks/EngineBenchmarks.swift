import AudioSessionEngine
import AudioSessionModel
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    // One benchmark iteration = 1,000 engine steps; throughput is reported in K steps per second.
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3))

    // The steady state the name says: one engine per benchmark, not per sample, warmed by one
    // pass over the workload before anything is measured. (Built per sample, a 10,000-app engine's
    // first steps ran on freshly built, cache-cold storage and the figure said idle apps cost
    // 1.7×; `scripts/benchmark` prints the idle ratio beside callgrind's count per step.)
    for registered in [10, 10_000] {
        let driven = DrivenEngine(registered: registered)
        Benchmark("Engine steps, 10 active apps of \(registered) registered", configuration: configuration) { benchmark in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(driven.next()) }
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

/// An engine and its workload, kept from sample to sample, so each sample measures steps of an
/// engine that has already run, not the first steps after building it.
final class DrivenEngine: @unchecked Sendable {  // used by one benchmark thread at a time
    private var engine: Engine
    private let steps: [Step]
    private var position = 0

    init(registered: Int) {
        (engine, steps) = Workload.engine(registered: registered)
        for _ in steps { _ = next() }
    }

    func next() -> StepOutcome {
        let result = engine.apply(steps[position])
        position = position + 1 == steps.count ? 0 : position + 1
        return result
    }
}
