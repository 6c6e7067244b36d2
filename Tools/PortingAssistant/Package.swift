// swift-tools-version:6.2
import PackageDescription

/// The porting assistant (`audiosession port`): reads iOS Swift sources with swift-syntax,
/// reports what will not build on Linux and rewrites the mechanical cases. A package of its own
/// so swift-syntax stays out of the library's and the daemon's build.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .treatAllWarnings(as: .error)]

let package = Package(
    name: "PortingAssistant",
    products: [.executable(name: "audiosession-port", targets: ["audiosession-port"])],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "PortingAssistantCore",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strict),
        // Foundation's Process: the fixed files type-checked with swiftc against this package's modules.
        .target(name: "PortingAssistantBuild", swiftSettings: strict),
        .executableTarget(
            name: "audiosession-port",
            dependencies: [
                "PortingAssistantCore", "PortingAssistantBuild",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PortingAssistantTests", dependencies: ["PortingAssistantCore", "PortingAssistantBuild"], swiftSettings: strict),
    ]
)
