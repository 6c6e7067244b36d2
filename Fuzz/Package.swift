// swift-tools-version:6.2
// libFuzzer targets (issue 7). Build one with
//   swift build --package-path Fuzz -c release --product FuzzWire --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
// and run it with scripts/fuzz (README "Fuzzing"). A package of its own: a fuzz target has no
// `main`, so it cannot be part of the normal build.
import Foundation
import PackageDescription

/// The repository's package identity: the last component of its path, which differs between clones.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "fuzz",
    products: [
        .executable(name: "FuzzWire", targets: ["FuzzWire"]),
        .executable(name: "FuzzScenario", targets: ["FuzzScenario"]),
        .executable(name: "FuzzEngine", targets: ["FuzzEngine"]),
    ],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "FuzzWire", dependencies: [.product(name: "AudioSessionWire", package: repository)]),
        .executableTarget(name: "FuzzScenario", dependencies: [.product(name: "Scenarios", package: repository)]),
        .executableTarget(
            name: "FuzzEngine",
            dependencies: [
                .product(name: "AudioSessionEngine", package: repository), .product(name: "AudioSessionModel", package: repository),
            ]),
    ]
)
