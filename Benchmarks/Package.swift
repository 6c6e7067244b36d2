// swift-tools-version:6.2
import PackageDescription

// Benchmarks live in their own package so that the benchmark library (a few minutes to build)
// stays out of the normal build and test run. The engine's sources come in through the
// `Engine` symlink, so this package does not depend on the name of the checkout's folder.
let package = Package(
    name: "audiosession-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(name: "AudioSessionEngine", path: "Engine"),
        .target(name: "Workloads", dependencies: ["AudioSessionEngine"], path: "Benchmarks/Workloads"),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: ["AudioSessionEngine", "Workloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EngineProfile", dependencies: ["AudioSessionEngine", "Workloads"], path: "Benchmarks/EngineProfile"),
    ]
)
