import Foundation

/// Whether the fixed sources build here: the assistant's word "nothing left" is only as good as
/// the compiler's. The fixed text of every file given (as `--fix` writes it) is type-checked
/// together with `swiftc -typecheck` against this package's modules (AVFoundation, AVFAudio,
/// MediaPlayer, os, Combine …), as a package that depends on it builds them.
public enum FixedSourcesBuild {
    public enum Outcome: Equatable, Sendable {
        case builds
        /// The compiler's errors, each `path:line:column: error: message`, paths as given.
        case fails(errors: [String])
        /// Not built, and why (no modules found, no compiler).
        case notBuilt(String)
    }

    /// Where a build of this package keeps its modules: `Modules/` for the Swift modules, and the
    /// module maps of the C modules they stand on.
    public struct Modules: Sendable {
        public var swiftModules: String
        public var moduleMaps: [String]

        public init(swiftModules: String, moduleMaps: [String]) {
            self.swiftModules = swiftModules
            self.moduleMaps = moduleMaps
        }

        /// A package build directory (`.build/debug`, or its `Modules/`) that holds AVFAudio's
        /// module, with the C module maps of that package and its checkouts; nil if it holds none.
        public static func at(_ path: String) -> Modules? {
            let fileManager = FileManager.default
            var build = URL(fileURLWithPath: path).standardizedFileURL
            if build.lastPathComponent == "Modules" { build.deleteLastPathComponent() }
            let swiftModules = build.appendingPathComponent("Modules").path
            guard fileManager.fileExists(atPath: swiftModules + "/AVFAudio.swiftmodule") else { return nil }
            // SwiftPM's own maps for C targets without one (…/debug/NAME.build/module.modulemap), then
            // the packages' written ones (Sources/NAME/[include/]module.modulemap), ours and the checkouts'.
            var maps: [String] = []
            let built = (try? fileManager.contentsOfDirectory(atPath: build.path)) ?? []
            for name in built.sorted() where name.hasSuffix(".build") {
                let map = build.appendingPathComponent("\(name)/module.modulemap").path
                if fileManager.fileExists(atPath: map) { maps.append(map) }
            }
            var dotBuild = build.resolvingSymlinksInPath()  // the package's .build, above …/debug
            while dotBuild.lastPathComponent != ".build", dotBuild.path != "/" { dotBuild.deleteLastPathComponent() }
            let root = dotBuild.deletingLastPathComponent()
            let checkouts = dotBuild.appendingPathComponent("checkouts")
            let packages =
                [root]
                + ((try? fileManager.contentsOfDirectory(atPath: checkouts.path)) ?? []).sorted().map {
                    checkouts.appendingPathComponent($0)
                }
                + pathDependencies(of: dotBuild)
            for package in packages {
                let sources = package.appendingPathComponent("Sources")
                for target in ((try? fileManager.contentsOfDirectory(atPath: sources.path)) ?? []).sorted() {
                    for place in ["module.modulemap", "include/module.modulemap"] {
                        let map = sources.appendingPathComponent("\(target)/\(place)").path
                        if fileManager.fileExists(atPath: map) { maps.append(map) }
                    }
                }
            }
            return Modules(swiftModules: swiftModules, moduleMaps: maps)
        }

        /// A package's debug builds: `.build/debug` (SwiftPM's link, made only after a build that
        /// succeeded), then each `.build/TRIPLE/debug` (where the modules are as soon as they are
        /// built, whether or not the app's own code built after them; issue 58).
        static func builds(in dotBuild: URL) -> [URL] {
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: dotBuild.path)) ?? []).sorted()
            return [dotBuild.appendingPathComponent("debug")]
                + entries.filter { $0.contains("-") }.map { dotBuild.appendingPathComponent("\($0)/debug") }
        }

        /// The packages a package depends on by path (`.package(path:)`: an app's package beside this
        /// one), as SwiftPM's `workspace-state.json` in its `.build` lists them: their C module maps
        /// (CSystemd, CPulse …) are not in `.build/checkouts` (issue 50: `missing required module`).
        static func pathDependencies(of dotBuild: URL) -> [URL] {
            let state = dotBuild.appendingPathComponent("workspace-state.json")
            guard let data = try? Data(contentsOf: state),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let object = json["object"] as? [String: Any],
                let dependencies = object["dependencies"] as? [[String: Any]]
            else { return [] }
            return dependencies.compactMap { dependency in
                guard let reference = dependency["packageRef"] as? [String: Any], reference["kind"] as? String == "fileSystem",
                    let location = reference["location"] as? String
                else { return nil }
                return URL(fileURLWithPath: location)
            }
        }

        /// The first of: `explicit` (`--modules`); a built package in `directory` or above it (an
        /// app's own package that depends on this one, once built — or whose build failed on its own
        /// code after building ours: every app before it is ported); the package this assistant was
        /// built beside (`tool`: Tools/PortingAssistant/.build/…/audiosession-port in a checkout).
        public static func find(explicit: String?, from directory: String, tool: String) -> Modules? {
            if let explicit { return at(explicit) }
            for start in [directory, URL(fileURLWithPath: tool).resolvingSymlinksInPath().deletingLastPathComponent().path] {
                var place = URL(fileURLWithPath: start).standardizedFileURL
                while true {
                    for build in builds(in: place.appendingPathComponent(".build")) {
                        if let found = at(build.path) { return found }
                    }
                    let parent = place.deletingLastPathComponent()
                    if parent.path == place.path { break }
                    place = parent
                }
            }
            return nil
        }
    }

    /// Type-checks `files` (each path as given, and its fixed text) together against `modules`.
    /// - Parameter missing: what to say when `modules` is nil (by default: none found, and how to give them).
    public static func check(
        _ files: [(path: String, text: String)], modules: Modules?, missing: String? = nil, compiler: String? = nil
    ) -> Outcome {
        guard let modules else {
            return .notBuilt(
                missing
                    ?? "no built AudioSession modules found (build your package, or this one, with swift build; or give --modules DIR)"
            )
        }
        guard let compiler = compiler ?? Self.compiler() else { return .notBuilt("no swiftc on PATH") }
        let fileManager = FileManager.default
        let directory = fileManager.temporaryDirectory.appendingPathComponent("audiosession-port-build-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: directory) }
        // Each file under its own numbered folder, its name kept (the compiler names it; main.swift stays the entry).
        var written: [(copy: String, original: String)] = []
        for (index, file) in files.enumerated() {
            let folder = directory.appendingPathComponent("\(index)")
            let copy = folder.appendingPathComponent(URL(fileURLWithPath: file.path).lastPathComponent)
            do {
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
                try file.text.write(to: copy, atomically: true, encoding: .utf8)
            } catch {
                return .notBuilt("cannot write a copy to build: \(error.localizedDescription)")
            }
            written.append((copy.path, file.path))
        }
        var arguments = ["-typecheck", "-I", modules.swiftModules]
        for map in modules.moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        // One file with no main.swift is a library file (an @main type, no top-level code).
        if files.count == 1, URL(fileURLWithPath: files[0].path).lastPathComponent != "main.swift" {
            arguments.append("-parse-as-library")
        }
        arguments += written.map(\.copy)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return .notBuilt("cannot run \(compiler): \(error.localizedDescription)") }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 0 { return .builds }
        let errors = Self.errors(in: said, copies: written)
        return .fails(errors: errors.isEmpty ? [said.trimmingCharacters(in: .whitespacesAndNewlines)] : errors)
    }

    /// The compiler's error lines (warnings and notes left out), each copy's path put back as given.
    public static func errors(in output: String, copies: [(copy: String, original: String)]) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(": error: ") else { return nil }
            var line = String(line)
            for file in copies where line.hasPrefix(file.copy + ":") {
                line = file.original + line.dropFirst(file.copy.count)
            }
            return line
        }
    }

    static func compiler() -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
