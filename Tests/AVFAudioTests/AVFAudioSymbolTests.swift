import Foundation
import Testing

/// The symbol list: every Apple name in apple-symbols.txt exists in the AVFAudio module built
/// here, and every name marked "!" (not offered, with why) does not — so the list stays true.
@Suite("Apple's AVFAudio names")
struct AVFAudioSymbolTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The symbol paths of the built module (`swift symbolgraph-extract` on .build/debug/Modules).
    static func builtSymbols() throws -> Set<String> {
        let modules = root.appendingPathComponent(".build/debug/Modules").resolvingSymlinksInPath()
        // .build/<triple>/debug/Modules: the triple the module was built for.
        let triple = modules.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("avfaudio-symbols-\(getpid())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "symbolgraph-extract", "-module-name", "AVFAudio", "-target", triple, "-I", modules.path,
            "-output-dir", output.path, "-minimum-access-level", "public",
        ]
        // The C modules AVFAudio's imports stand on (OpenCombine's helpers, through Combine): SwiftPM's
        // own module maps for them, as it passes them to the compiler.
        let build = modules.deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: build.path).sorted() where name.hasSuffix(".build") {
            let map = build.appendingPathComponent("\(name)/module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) {
                process.arguments! += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
        }
        // And the package's system-library modules (libsndfile, libpulse: AVAudioPlayer's path).
        let sources = root.appendingPathComponent("Sources")
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where name.hasPrefix("C") {
            let map = sources.appendingPathComponent("\(name)/module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) {
                process.arguments! += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
        }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift symbolgraph-extract: \(said)")
        let data = try Data(contentsOf: output.appendingPathComponent("AVFAudio.symbols.json"))
        let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let symbols = graph?["symbols"] as? [[String: Any]] ?? []
        return Set(symbols.compactMap { ($0["pathComponents"] as? [String])?.joined(separator: ".") })
    }

    /// The list: (symbol, offered) per line.
    static func appleList() throws -> [(symbol: String, offered: Bool)] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Tests/AVFAudioTests/apple-symbols.txt"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> (String, Bool)? in
            let line = line.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
            if line.hasPrefix("!") {
                let name = line.dropFirst().split(separator: "—").first?.trimmingCharacters(in: .whitespaces) ?? ""
                return (name, false)
            }
            return (line, true)
        }
    }

    @Test("Every Apple name offered is in the module; every one marked missing is not; each missing one says why")
    func theListMatchesTheModule() throws {
        let built = try Self.builtSymbols()
        #expect(built.count > 200, "the symbol graph was read: \(built.count) symbols")
        let list = try Self.appleList()
        #expect(list.count > 250)
        let absent = list.filter { $0.offered && !built.contains($0.symbol) }.map(\.symbol)
        #expect(absent.isEmpty, "Apple names missing from AVFAudio: \(absent)")
        let offeredAfterAll = list.filter { !$0.offered && built.contains($0.symbol) }.map(\.symbol)
        #expect(offeredAfterAll.isEmpty, "marked not offered but present: \(offeredAfterAll)")
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/AVFAudioTests/apple-symbols.txt"), encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("!") {
            #expect(line.contains("—") && line.split(separator: "—").last!.count > 8, "says why: \(line)")
        }
    }
}
