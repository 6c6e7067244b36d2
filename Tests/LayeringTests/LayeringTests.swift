import Foundation
import Testing

/// The layers as drawn in docs/architecture.md: which of our modules each module may import, and
/// that an app binary carries no NIO and no service-lifecycle (issue "Layers as drawn").
@Suite("Layering")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each library module and the modules of this package it may import. Arrows point down:
    /// Model ← Engine ← Runtime ← Daemon; Wire ← Model; the client knows Model, Wire and the
    /// Runtime (its embedded mode); compatibility and the C API know the client and Model.
    static let allowed: [String: Set<String>] = [
        "AudioSessionModel": [],
        "AudioSessionEngine": ["AudioSessionModel"],
        "AudioSessionWire": ["AudioSessionModel"],
        "AudioSessionRuntime": ["AudioSessionModel", "AudioSessionEngine", "AudioSessionWire"],
        "AudioSessionDaemon": ["AudioSessionModel", "AudioSessionRuntime", "AudioSessionWire"],
        // The configuration file (libyaml): the daemon's side, above it.
        "AudioSessionConfiguration": ["AudioSessionModel", "AudioSessionRuntime", "AudioSessionDaemon", "CYAML"],
        "AudioSessionClient": ["AudioSessionModel", "AudioSessionWire", "AudioSessionRuntime"],
        // The client with NotificationCenter and `shared`: what apps import.
        "AudioSession": ["AudioSessionClient", "AudioSessionWire"],
        // AVFAudio brings Combine as Apple's Foundation does (ObservableObject, @Published).
        // SO2, SO3: AVAudioPlayer and AVAudioRecorder over the one playback and recording path.
        // §20: AVAudioEngine's classes are shapes over AudioSessionSound's render graph.
        "AVFAudio": ["AudioSession", "AudioSessionModel", "AudioSessionMedia", "AudioSessionSound", "CSndFile", "Combine"],
        // AVFoundation brings CoreMedia (CMTime), as Apple's does.
        "AVFoundation": ["AVFAudio", "CoreMedia"],
        "CoreMedia": [],
        // Porting aids: OpenCombine re-exported, and AVFoundation re-exported for `import AVKit`.
        "Combine": [],
        "AVKit": ["AVFoundation"],
        // `import os` over swift-log (a porting aid).
        "os": [],
        // `import MediaPlayer`: Now Playing and remote commands as an MPRIS player (sd-bus).
        // It brings AVFoundation, as Apple's MediaPlayer does.
        "MediaPlayer": ["CSystemd", "AVFoundation", "AudioSession"],
        // The C library's queues, units and system sounds play through the one path (ARCHITECTURE rev. 5).
        "AudioSessionServices": ["CAudioSessionServices", "AudioSessionClient", "AudioSessionModel", "AudioSessionSound"],
        // Scenarios drive the client (no NotificationCenter): the command links no Foundation.
        "Scenarios": ["AudioSessionModel", "AudioSessionClient", "AudioSessionWire", "AudioSessionEngine"],
        "AudioSessionMedia": ["AudioSession", "AudioSessionModel", "AudioSessionSound", "CSndFile", "CPulse", "PulseClient"],
        // The one playback and recording path: no session, no Foundation (the C library links it).
        "AudioSessionSound": ["CSndFile", "CPulse", "PulseClient", "CSampleRate", "CSoundTouch", "CFFmpeg"],
        "PulseClient": ["CPulse"],
        // A backend knows the runtime's door (AudioBackend, Arbiter.report) and the model only.
        "PulseBackend": ["CPulse", "PulseClient", "AudioSessionModel", "AudioSessionRuntime"],
        // The two command lines (libraries, so that one release binary holds both: issue 31).
        "AudioSessionCLI": [
            "Scenarios", "AudioSessionClient", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionWire",
            "AudioSessionModel",
        ],
        "AudioSessionDaemonCLI": [
            "PulseBackend", "AudioSessionRuntime", "AudioSessionDaemon", "AudioSessionConfiguration", "AudioSessionModel",
            "AudioSessionWire", "DesktopNotifications",
        ],
        // P4: the daemon's question to the desktop's notification server (sd-bus through dlopen).
        "DesktopNotifications": ["CDesktopNotifications", "AudioSessionModel", "AudioSessionRuntime"],
        // `audiosession live`: a monitor of the daemon (the client) serving its web page.
        "audiosession-live": ["AudioSession", "AudioSessionWire", "AudioSessionModel"],
    ]

    /// Modules that only the daemon's side may import.
    static let daemonOnly: Set<String> = ["NIOCore", "NIOPosix", "ServiceLifecycle", "AudioSessionDaemon"]
    /// The daemon's side: the modules that may import them (the command starts private daemons
    /// and runs the soak's load; the live view serves its page with NIO's HTTP codec; neither is an app).
    static let daemonSide: Set<String> = [
        "AudioSessionDaemon", "AudioSessionConfiguration", "AudioSessionDaemonCLI", "AudioSessionCLI", "audiosession-live",
    ]

    /// `(module, import, modifier)` for every import line of a module's sources.
    static func imports(of module: String) throws -> [(module: String, modifier: String)] {
        let folder = root.appendingPathComponent("Sources/\(module)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var found: [(String, String)] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count, index <= 1 else { continue }
                found.append((words[index + 1], index == 1 ? words[0] : ""))
            }
        }
        return found
    }

    static let ours: Set<String> = Set(
        (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])

    @Test("Each module imports only the layers below it", arguments: allowed.keys.sorted())
    func importsPointDown(module: String) throws {
        let allowed = Self.allowed[module]!
        for (imported, _) in try Self.imports(of: module) {
            if Self.ours.contains(imported) {
                #expect(allowed.contains(imported), "\(module) imports \(imported)")
            }
            if !Self.daemonSide.contains(module) {
                #expect(!Self.daemonOnly.contains(imported), "\(module) imports \(imported), which only the daemon may")
            }
        }
    }

    @Test("The engine is internal to the client: apps see the model, not the engine")
    func appsDoNotSeeTheEngine() throws {
        let exported = try Self.imports(of: "AudioSession").filter { $0.modifier == "@_exported" }.map(\.module)
        #expect(exported == ["AudioSessionClient"])
        let exportedByClient = try Self.imports(of: "AudioSessionClient").filter { $0.modifier == "@_exported" }.map(\.module)
        #expect(exportedByClient == ["AudioSessionModel"])
        for module in ["AudioSessionClient", "AudioSession", "AVFAudio", "AVFoundation", "AudioSessionServices"] {
            let engine = try Self.imports(of: module).filter { $0.module == "AudioSessionEngine" }
            #expect(engine.isEmpty, "\(module) imports the engine")
        }
        // Scenarios drives the engine directly in-process (EmbeddedDriver), but never re-exports it.
        // (An `internal import` would hide the engine's layout from modules that copy the driver.)
        let scenarios = try Self.imports(of: "Scenarios").filter { $0.module == "AudioSessionEngine" }
        #expect(scenarios.allSatisfy { $0.modifier != "@_exported" })
    }

    /// The symbols of a built binary (`nm`), or nil when it cannot be read.
    static func symbols(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nm", "--defined-only", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "nm \(path)")
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "An app, the C library and the daemon: only the daemon links NIO and service-lifecycle",
        arguments: ["music-player", "phone-call", "play-file", "libAudioSessionServices.so", "audiosessiond"])
    func appsLinkNoNIO(binary: String) throws {
        let path = Self.root.appendingPathComponent(".build/debug/\(binary)").path
        #expect(FileManager.default.fileExists(atPath: path), "\(path) is built by swift build")
        let symbols = try Self.symbols(path)
        // Swift mangles a module name as its length and name: 7NIOCore, 16ServiceLifecycle.
        let linksNIO = symbols.contains("7NIOCore") || symbols.contains("8NIOPosix")
        let linksLifecycle = symbols.contains("16ServiceLifecycle")
        let linksRuntime = symbols.contains("19AudioSessionRuntime")
        #expect(linksRuntime, "\(binary) carries the runtime (the embedded arbiter)")
        #expect(linksNIO == (binary == "audiosessiond"), "\(binary) links NIO: \(linksNIO)")
        #expect(linksLifecycle == (binary == "audiosessiond"), "\(binary) links service-lifecycle: \(linksLifecycle)")
    }

    /// Issue 41: sd-bus (libsystemd) comes with `import MediaPlayer` and the players bridge only.
    @Test(
        "Only MediaPlayer's apps and the players bridge link sd-bus: not the daemon, the client library's apps or the C library",
        arguments: [
            "music-player", "play-file", "libAudioSessionServices.so", "audiosessiond", "podcast-player", "audiosession-players",
        ])
    func onlyMediaPlayerLinksSDBus(binary: String) throws {
        let needed = try Self.neededLibraries(Self.root.appendingPathComponent(".build/debug/\(binary)").path)
        let linksSystemd = needed.contains { $0.hasPrefix("libsystemd") }
        #expect(linksSystemd == ["podcast-player", "audiosession-players"].contains(binary), "\(binary): \(needed)")
    }

    /// The libraries a built binary needs (`objdump -p`'s NEEDED lines).
    static func neededLibraries(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["objdump", "-p", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").filter { $0.contains("NEEDED") }.map {
            String($0.split(separator: " ").last ?? "")
        }
    }

    /// The daemon's RSS, and the players bridge's (§16: ≤ 15 MiB with 20 players; Foundation's
    /// CoreFoundation alone costs some 5 MiB once linked, used or not); the command's and the C
    /// library's installed size (issue 31: Foundation brings ICU's 32 MiB of data).
    @Test(
        "The daemon, the command and the players bridge stay on FoundationEssentials: neither Foundation nor ICU is loaded",
        arguments: ["audiosessiond", "audiosession", "audiosession-multicall", "audiosession-players"])
    func linksNoFoundation(binary: String) throws {
        let needed = try Self.neededLibraries(Self.root.appendingPathComponent(".build/debug/\(binary)").path)
        #expect(needed.contains("libFoundationEssentials.so"), "\(needed)")
        #expect(!needed.contains("libFoundation.so") && !needed.contains("lib_FoundationICU.so"), "\(needed)")
    }

    /// The README's first command, `swift run audiosession demo`, needs nothing but Swift: the
    /// command alone links none of the C libraries the daemon and the backend need.
    @Test("The command alone needs no C library from Debian (libpulse, libyaml, libsystemd, libsndfile)")
    func commandNeedsOnlySwift() throws {
        let needed = try Self.neededLibraries(Self.root.appendingPathComponent(".build/debug/audiosession").path)
        #expect(
            !needed.contains { ["libpulse", "libyaml", "libsystemd", "libsndfile"].contains(where: $0.hasPrefix) }, "\(needed)")
        let multicall = try Self.neededLibraries(Self.root.appendingPathComponent(".build/debug/audiosession-multicall").path)
        #expect(multicall.contains { $0.hasPrefix("libpulse") }, "the release's one binary is the daemon too: \(multicall)")
    }

    /// Issue 31: the C library ships the Swift runtime it needs beside it; without
    /// FoundationEssentials that is some 14 MiB instead of 24.
    @Test("The C library needs no Foundation of any kind")
    func cLibraryLinksNoFoundation() throws {
        let needed = try Self.neededLibraries(Self.root.appendingPathComponent(".build/debug/libAudioSessionServices.so").path)
        #expect(needed.contains("libswiftCore.so"), "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libFoundation") || $0.contains("ICU") }, "\(needed)")
    }

    /// NotificationCenter lives in the AudioSession module; JSON and files (the settings store)
    /// in the daemon module.
    @Test(
        "The client, the runtime and the sound path import no Foundation, not even FoundationEssentials",
        arguments: ["AudioSessionClient", "AudioSessionRuntime", "AudioSessionSound"])
    func clientImportsNoFoundation(module: String) throws {
        let foundation = try Self.imports(of: module).filter { $0.module.hasPrefix("Foundation") }
        #expect(foundation.isEmpty, "\(foundation)")
    }
}
