// swift-tools-version:6.2
// UIKit as ported audio code uses it: UIImage (read and written through FFmpeg's libavcodec and
// libswscale) and UIApplication (its state following AudioSession.setApplicationState). A package
// of its own, not a product of the main one: a module named UIKit in a build makes
// `canImport(UIKit)` true for every package built with it, and libraries take that to mean iOS
// (swift-property-based, which this repository's tests use, then reaches for UIColor). An app opts
// in by depending on this package (README "Porting iOS code").
import Foundation
import PackageDescription

/// The repository's package identity: the last component of its path, which differs between clones.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "audiosession-uikit",
    products: [.library(name: "UIKit", targets: ["UIKit"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(
            name: "CImageCodec",
            linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil")]),
        // The empty cross-import overlay Swift Testing asks for when a file imports it and UIKit.
        .target(name: "_Testing_UIKit", swiftSettings: strict),
        .target(
            name: "UIKit",
            dependencies: ["CImageCodec", "_Testing_UIKit", .product(name: "AudioSession", package: repository)],
            swiftSettings: strict),
    ]
)
