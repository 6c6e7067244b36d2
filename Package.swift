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
        .library(name: "AudioSessionModel", targets: ["AudioSessionModel"]),
        .library(name: "AudioSessionEngine", targets: ["AudioSessionEngine"]),
        .library(name: "AudioSessionWire", targets: ["AudioSessionWire"]),
        .library(name: "AudioSessionRuntime", targets: ["AudioSessionRuntime"]),
        .library(name: "AudioSessionDaemon", targets: ["AudioSessionDaemon"]),
        .library(name: "AudioSession", targets: ["AudioSession"]),
        .library(name: "AudioSessionClient", targets: ["AudioSessionClient"]),
        .library(name: "AVFAudio", targets: ["AVFAudio"]),
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        // Porting aids: `import Combine` (OpenCombine) and `import AVKit` (the session API only).
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "AVKit", targets: ["AVKit"]),
        // Porting aid: `import os` (Logger, OSLog, os_log, OSSignposter) over swift-log.
        .library(name: "os", targets: ["os"]),
        // `import MediaPlayer`: Now Playing and remote commands as an MPRIS player (sd-bus).
        .library(name: "MediaPlayer", targets: ["MediaPlayer"]),
        // `import CoreMedia`: CMTime (a porting aid; AVFoundation brings it, as Apple's does).
        .library(name: "CoreMedia", targets: ["CoreMedia"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "AudioSessionMedia", targets: ["AudioSessionMedia"]),
        // Audio Session Services for C: libAudioSessionServices.so and AudioSessionServices.h.
        .library(name: "AudioSessionServices", type: .dynamic, targets: ["AudioSessionServices"]),
        .executable(name: "audiosession", targets: ["audiosession"]),
        .executable(name: "audiosession-multicall", targets: ["audiosession-multicall"]),
        .executable(name: "audiosessiond", targets: ["audiosessiond"]),
        .executable(name: "audiosession-players", targets: ["audiosession-players"]),
        .executable(name: "audiosession-live", targets: ["audiosession-live"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` for the DocC catalogs (no code of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `import Combine` for iOS code (the Combine product, a porting aid): OpenCombine's API.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // The model every layer shares: categories, modes, options, ports, routes, statuses,
        // errors, calls, system events, notifications. Plain values, the standard library only.
        .target(name: "AudioSessionModel", swiftSettings: strict),
        // The pure engine: the model and the standard library only (no Foundation, I/O, clock,
        // threads, logging).
        .target(name: "AudioSessionEngine", dependencies: ["AudioSessionModel"], swiftSettings: strict),
        // The wire protocol: messages, framing, the total decoder (docs/protocol.md).
        .target(name: "AudioSessionWire", dependencies: ["AudioSessionModel"], swiftSettings: strict),
        // The runtime, without NIO: the engine's serial owner (the arbiter), settings store,
        // permission policy, what backends see. The daemon and the client's embedded mode use it.
        .target(
            name: "AudioSessionRuntime",
            dependencies: [
                "AudioSessionModel", "AudioSessionEngine", "AudioSessionWire", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The daemon's shell: socket server, connections, outboxes, service lifecycle (NIO).
        .target(
            name: "AudioSessionDaemon",
            dependencies: [
                "AudioSessionModel", "AudioSessionRuntime", "AudioSessionWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // libyaml (Debian: libyaml-dev), the parser Yams wraps, read directly: Yams would link all
        // of Foundation and ICU into the daemon (+6.6 MiB RSS measured).
        .systemLibrary(name: "CYAML"),
        // The daemon's configuration file and app manifests (T1, T5): read, checked, reloaded.
        .target(
            name: "AudioSessionConfiguration",
            dependencies: [
                "AudioSessionModel", "AudioSessionRuntime", "AudioSessionDaemon",
                "CYAML", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The Swift client library: AudioSession, in-process or over the daemon's socket, on
        // FoundationEssentials (no NotificationCenter, no CoreFoundation: the players bridge's RSS).
        .target(
            name: "AudioSessionClient",
            dependencies: [
                "AudioSessionModel", "AudioSessionWire", "AudioSessionRuntime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // What apps import: the client with NotificationCenter posts and `AudioSession.shared`.
        .target(name: "AudioSession", dependencies: ["AudioSessionClient", "AudioSessionWire"], swiftSettings: strict),
        // Apple's names over AudioSession (no logic of its own), for code written for iOS; its
        // AVAudioPlayer and AVAudioRecorder are shapes over AudioSessionMedia's one playback and one
        // recording path (SO2, SO3).
        .target(
            name: "AVFAudio",
            dependencies: ["AudioSession", "AudioSessionModel", "AudioSessionMedia", "AudioSessionSound", "CSndFile", "Combine"],
            swiftSettings: strict),
        // Porting aids for iOS code: `import Combine` is OpenCombine re-exported; `import AVKit` is
        // AVFoundation's session API re-exported (AVKit's view controllers stay out of scope).
        .target(
            name: "Combine",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ],
            swiftSettings: strict),
        .target(name: "AVKit", dependencies: ["AVFoundation"], swiftSettings: strict),
        .target(name: "os", dependencies: [.product(name: "Logging", package: "swift-log")], swiftSettings: strict),
        // The only library that links sd-bus (libsystemd): the daemon, the client and the C library never do.
        // It brings AVFoundation, as Apple's MediaPlayer does (a file importing MediaPlayer alone
        // uses AVAudioSession).
        .target(name: "MediaPlayer", dependencies: ["CSystemd", "AVFoundation", "AudioSession"], swiftSettings: strict),
        // CoreMedia's time (CMTime and its functions), the standard library only.
        .target(name: "CoreMedia", swiftSettings: strict),
        // It brings Combine (OpenCombine) as Apple's Foundation does: `ObservableObject` and
        // `@Published` build with `import AVFoundation` alone.
        .target(name: "AVFoundation", dependencies: ["AVFAudio", "CoreMedia"], swiftSettings: strict),
        // The C API (SPEC §14): the public header, and Swift that only converts to AudioSession.
        .target(name: "CAudioSessionServices"),
        .target(
            name: "AudioSessionServices",
            dependencies: ["CAudioSessionServices", "AudioSessionClient", "AudioSessionModel", "AudioSessionSound"],
            swiftSettings: strict),
        // The PulseAudio/PipeWire backend: libpulse (a system library) and the mapping of the
        // server's sinks and sources to session ports.
        // Headers and library from Debian's libpulse-dev in the standard paths (pkg-config would add
        // -pthread, which SwiftPM refuses with a warning).
        .systemLibrary(name: "CPulse"),
        // A libpulse connection on its threaded main loop: what the backend and the players share.
        .target(name: "PulseClient", dependencies: ["CPulse"], swiftSettings: strict),
        .target(
            name: "PulseBackend",
            dependencies: [
                "CPulse", "PulseClient", "AudioSessionModel", "AudioSessionRuntime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // Players and recorders of real audio through the session (issue 6): sound files through
        // libsndfile (Debian: libsndfile1-dev), a sound server through libpulse, or rendered to files.
        .systemLibrary(name: "CSndFile"),
        // The one playback and recording path (ARCHITECTURE rev. 5): sound files, a stream of the app's
        // own on the sound server or the simulated device's files. No Foundation: the C library's
        // queues, units and system sounds (SO4–SO6) play through it too.
        // libsamplerate (Debian: libsamplerate0-dev): the one sample-rate converter (ARCHITECTURE rev. 6).
        .systemLibrary(name: "CSampleRate"),
        // SoundTouch's C interface (Debian: libsoundtouch-dev): AVAudioUnitTimePitch's time-stretcher.
        .systemLibrary(name: "CSoundTouch"),
        // FFmpeg's libavformat, libavcodec and libswresample (Debian: libavformat-dev, libavcodec-dev,
        // libswresample-dev): AAC, Apple Lossless and MP3 behind the same sound-file seam (SO8).
        .systemLibrary(name: "CFFmpeg"),
        // The engine's render graph lives here too (SPEC §20: the render thread, its plan, the kernels).
        .target(
            name: "AudioSessionSound",
            dependencies: ["CSndFile", "CPulse", "PulseClient", "CSampleRate", "CSoundTouch", "CFFmpeg"],
            swiftSettings: strict),
        .target(
            name: "AudioSessionMedia",
            dependencies: ["AudioSession", "AudioSessionModel", "AudioSessionSound", "CSndFile", "CPulse", "PulseClient"],
            swiftSettings: strict),
        // Scenario files: parser and runner (SCENARIOS.md).
        .target(
            name: "Scenarios",
            dependencies: ["AudioSessionModel", "AudioSessionEngine", "AudioSessionClient", "AudioSessionWire"],
            swiftSettings: strict),
        // The `audiosession` CLI: argument parsing, wiring and printing only.
        .target(
            name: "AudioSessionCLI",
            dependencies: [
                "Scenarios", "AudioSessionClient", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The daemon's command line: parsing and wiring only.
        .target(
            name: "AudioSessionDaemonCLI",
            dependencies: [
                "PulseBackend",
                "AudioSessionRuntime",
                "AudioSessionDaemon",
                "AudioSessionConfiguration",
                "DesktopNotifications",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // `audiosession` (the command: nothing but Swift, for `swift run audiosession demo`) and
        // `audiosessiond` (the daemon) for development; `audiosession-multicall`, both in one, is
        // what the release installs as `audiosession` with `audiosessiond` a link to it.
        .executableTarget(name: "audiosession", dependencies: ["AudioSessionCLI"], swiftSettings: strict),
        .executableTarget(name: "audiosessiond", dependencies: ["AudioSessionDaemonCLI"], swiftSettings: strict),
        .executableTarget(
            name: "audiosession-multicall", dependencies: ["AudioSessionCLI", "AudioSessionDaemonCLI"], swiftSettings: strict),
        // §16: the players bridge's decisions, pure (no bus, no socket).
        .target(name: "AudioSessionPlayers", dependencies: ["AudioSessionModel"], swiftSettings: strict),
        // sd-bus (libsystemd): the session bus, for the players bridge only.
        .systemLibrary(name: "CSystemd"),
        // P4: the daemon asks the user through the desktop's notification server (sd-bus, loaded
        // with dlopen at the first question: the daemon links no libsystemd).
        .target(name: "CDesktopNotifications"),
        .target(
            name: "DesktopNotifications", dependencies: ["CDesktopNotifications", "AudioSessionModel", "AudioSessionRuntime"],
            swiftSettings: strict),
        // §16: `audiosession-players`, MPRIS players on the session bus as apps (one per user session).
        .executableTarget(
            name: "audiosession-players",
            dependencies: [
                "AudioSessionPlayers", "AudioSessionClient", "AudioSessionWire", "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `audiosession live`: a local web page of a running daemon, on swift-nio's HTTP/1.1 codec
        // (the daemon's own dependency: the web server adds no package and is in no other binary).
        .executableTarget(
            name: "audiosession-live",
            dependencies: [
                "AudioSession", "AudioSessionWire", "AudioSessionModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // README "Two apps": a music player and a call-like app, against a daemon.
        .executableTarget(
            name: "music-player", dependencies: ["AudioSession"], path: "Examples/MusicPlayer", swiftSettings: strict),
        // An iOS podcast player's Now Playing and remote commands over MPRIS (Swift 5 mode, as iOS code).
        // (EpisodePlayer.swift is the Compatibility corpus's file, byte for byte: ./scripts/test
        // compares them. A link would put one file in two packages' targets, which SwiftPM refuses.)
        .executableTarget(
            name: "podcast-player", dependencies: ["AVFoundation", "MediaPlayer"], path: "Examples/PodcastPlayer",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "play-file", dependencies: ["AudioSession", "AudioSessionMedia"], path: "Examples/PlayFile",
            swiftSettings: strict),
        .executableTarget(name: "phone-call", dependencies: ["AudioSession"], path: "Examples/PhoneCall", swiftSettings: strict),
        // §20: Apple's engine samples as iOS code writes them (Swift 5 mode): a player node, a speech tap.
        .executableTarget(
            name: "engine-player", dependencies: ["AVFoundation"], path: "Examples/EnginePlayer",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "speech-tap", dependencies: ["AVFoundation"], path: "Examples/SpeechTap",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Daemon benchmarks, printed by scripts/benchmark (not a test: it measures).
        .executableTarget(
            name: "pulse-bench",
            dependencies: [
                "PulseBackend", "PulseClient", "CPulse", "AudioSession", "AudioSessionMedia", "AudioSessionRuntime",
                "AudioSessionSound", "AVFAudio",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/pulse-bench", swiftSettings: strict),
        .executableTarget(
            name: "daemon-bench",
            dependencies: [
                "AudioSession", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionWire",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/daemon-bench",
            swiftSettings: strict),
        .testTarget(
            name: "AudioSessionEngineTests",
            dependencies: [
                "AudioSessionEngine", "AudioSessionModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioSessionWireTests",
            dependencies: [
                "AudioSessionWire", "AudioSessionModel", "AudioSessionEngine",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AudioSessionTests",
            dependencies: [
                "AudioSession", "AudioSessionEngine", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionWire",
                "Scenarios",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PulseBackendTests",
            dependencies: [
                "PulseBackend", "AudioSessionEngine", "AudioSession", "AudioSessionMedia", "AudioSessionRuntime",
                "AudioSessionConfiguration", "AVFAudio",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AudioSessionPlayersTests", dependencies: ["AudioSessionPlayers", "AudioSessionModel"],
            swiftSettings: strict),
        .testTarget(
            name: "AudioSessionMediaTests",
            dependencies: [
                "AudioSessionMedia", "AudioSession", "AudioSessionRuntime", "AudioSessionSound", "AVFAudio",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(name: "AudioSessionModelTests", dependencies: ["AudioSessionModel"], swiftSettings: strict),
        // Apple's AVAudioSession surface: the symbol list (apple-symbols.txt) and what the newer
        // and deprecated members do here.
        .testTarget(
            name: "AVFAudioTests",
            dependencies: [
                "AVFAudio", "AudioSession", "AudioSessionModel", "AudioSessionRuntime", "CoreMedia",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["apple-symbols.txt"], swiftSettings: strict),
        .testTarget(
            name: "OSTests",
            dependencies: [
                "os", .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AudioSessionConfigurationTests",
            dependencies: ["AudioSessionConfiguration", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionModel"],
            swiftSettings: strict),
        // The layers: imports per module, and which binaries carry NIO (reads Sources/ and .build/).
        .testTarget(name: "LayeringTests", swiftSettings: strict),
        // The live view's HTTP server, as a client on a socket sees it (scripts/test-live then runs the page in a browser).
        .testTarget(name: "LiveViewTests", dependencies: ["audiosession-live"], swiftSettings: strict),
        .testTarget(
            name: "ScenariosTests", dependencies: ["Scenarios", "AudioSessionModel", "AudioSessionEngine"], exclude: ["Timeline"],
            swiftSettings: strict),
    ]
)
