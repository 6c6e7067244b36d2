// swift-tools-version:6.2
import Foundation
import PackageDescription

/// The live view (`audiosession live`): a local web page of a running daemon, served with
/// Hummingbird. A package of its own so the HTTP server stays out of the daemon and the library.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .treatAllWarnings(as: .error)]

/// The repository's package identity: the last component of its path, which differs between clones.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "LiveView",
    products: [.executable(name: "audiosession-live", targets: ["audiosession-live"])],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "audiosession-live",
            dependencies: [
                .product(name: "AudioSession", package: repository),
                .product(name: "AudioSessionWire", package: repository),
                .product(name: "AudioSessionModel", package: repository),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict)
    ]
)
