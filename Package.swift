// swift-tools-version:6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 language mode (the package default),
/// explicit `any`, and warnings treated as errors so a warning never lands.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "audiosession",
    products: [
        .library(name: "AudioSessionEngine", targets: ["AudioSessionEngine"]),
        .library(name: "AudioSessionWire", targets: ["AudioSessionWire"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .executable(name: "audiosession", targets: ["audiosession"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The pure engine: the standard library only (no Foundation, I/O, clock, threads, logging).
        .target(name: "AudioSessionEngine", swiftSettings: strict),
        // The wire protocol: messages, framing, the total decoder (docs/protocol.md).
        .target(name: "AudioSessionWire", dependencies: ["AudioSessionEngine"], swiftSettings: strict),
        // Scenario files: parser and runner (SCENARIOS.md).
        .target(name: "Scenarios", dependencies: ["AudioSessionEngine"], swiftSettings: strict),
        // The `audiosession` CLI: argument parsing, wiring and printing only.
        .executableTarget(
            name: "audiosession",
            dependencies: [
                "Scenarios",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioSessionEngineTests",
            dependencies: [
                "AudioSessionEngine",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioSessionWireTests",
            dependencies: ["AudioSessionWire", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(name: "ScenariosTests", dependencies: ["Scenarios"], swiftSettings: strict),
    ]
)
