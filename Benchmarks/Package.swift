// swift-tools-version:6.2
import PackageDescription

// Benchmarks live in their own package so that the benchmark library (a few minutes to build)
// stays out of the normal build and test run. The model's and the engine's sources come in through the
// `Model` and `Engine` symlinks, so this package does not depend on the name of the checkout's folder.
let package = Package(
    name: "audiosession-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(name: "AudioSessionModel", path: "Model"),
        .target(name: "AudioSessionEngine", dependencies: ["AudioSessionModel"], path: "Engine"),
        .target(name: "Workloads", dependencies: ["AudioSessionEngine", "AudioSessionModel"], path: "Benchmarks/Workloads"),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: ["AudioSessionEngine", "AudioSessionModel", "Workloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EngineProfile", dependencies: ["AudioSessionEngine", "AudioSessionModel", "Workloads"], path: "Benchmarks/EngineProfile"),
    ]
)
