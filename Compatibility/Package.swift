// swift-tools-version:6.2
// iOS-style audio session code, written the way iOS apps write it, built unchanged against
// this repository's AVFoundation module in Swift 5 language mode, and run by ./scripts/test.
import Foundation
import PackageDescription

/// The repository's package identity: the last component of its path, which differs between clones.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ios-compatibility",
    dependencies: [.package(path: ".."), .package(path: "../Porting/UIKit")],
    targets: [
        .executableTarget(
            name: "ios-style-app",
            dependencies: [
                // A project that also builds for Apple platforms writes:
                // .product(name: "AVFoundation", package: "audiosession", condition: .when(platforms: [.linux]))
                .product(name: "AVFoundation", package: repository),
                .product(name: "AudioSession", package: repository),
                .product(name: "Combine", package: repository),
                .product(name: "AVKit", package: repository),
                .product(name: "os", package: repository),
                .product(name: "MediaPlayer", package: repository),
            ]
        ),
        // Issue 58: a radio app's Now Playing with UIImage artwork from its resources and
        // UIApplication, `import UIKit` as written (the UIKit package, Porting/UIKit).
        .executableTarget(
            name: "radio-app",
            dependencies: [
                .product(name: "AVFoundation", package: repository),
                .product(name: "AudioSession", package: repository),
                .product(name: "MediaPlayer", package: repository),
                .product(name: "UIKit", package: "uikit"),
            ],
            resources: [.copy("station.png")]
        ),
        // N4: a meditation app's interruption handler on the main thread, its Timer firing.
        .executableTarget(
            name: "meditation-app",
            dependencies: [
                .product(name: "AVFoundation", package: repository),
                .product(name: "AudioSession", package: repository),
            ]
        ),
        // UIKit's UIImage and UIApplication (Porting/UIKit), and MediaPlayer's artwork from a UIImage.
        .testTarget(
            name: "UIKitTests",
            dependencies: [
                .product(name: "UIKit", package: "uikit"),
                .product(name: "MediaPlayer", package: repository),
                .product(name: "AudioSession", package: repository),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
