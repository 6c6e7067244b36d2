import Foundation
import PortingAssistantBuild
import Testing

/// "Nothing left" only for code that builds here: the fixed files are type-checked with the
/// toolchain's swiftc, and what the compiler says is reported against the files as given.
@Suite("The fixed files, built")
struct FixedSourcesBuildTests {
    /// A module directory with nothing in it: these sources need only the standard library and Foundation.
    static let bare = FixedSourcesBuild.Modules(swiftModules: FileManager.default.temporaryDirectory.path, moduleMaps: [])

    @Test("A file that does not type-check fails, with the compiler's error at the file's own path and line")
    func errorsAreReported() {
        let outcome = FixedSourcesBuild.check(
            [(path: "App/Sources/Meter.swift", text: "import Foundation\nstruct Meter {\n    let level: Int = \"loud\"\n}\n")],
            modules: Self.bare)
        guard case .fails(let errors) = outcome else {
            Issue.record("expected errors, got \(outcome)")
            return
        }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("App/Sources/Meter.swift:3:") == true, "\(errors)")
        #expect(errors.first?.contains("error: cannot convert value of type 'String'") == true, "\(errors)")
    }

    @Test("Files are checked together: one may use another's types; a file of its own is a library file (@main)")
    func filesTogether() {
        let outcome = FixedSourcesBuild.check(
            [
                (path: "A/Levels.swift", text: "struct Levels { var peak = 0.0 }\n"),
                (path: "B/Tool.swift", text: "@main struct Tool {\n    static func main() { print(Levels().peak) }\n}\n"),
            ],
            modules: Self.bare)
        #expect(outcome == .builds)
        let alone = FixedSourcesBuild.check(
            [(path: "Tool.swift", text: "@main struct Tool {\n    static func main() {}\n}\n")], modules: Self.bare)
        #expect(alone == .builds)
    }

    @Test("An app's package that depends on this one by path: the path dependency's C module maps are found (issue 50)")
    func pathDependencyModuleMaps() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("port-path-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = root.appendingPathComponent("App"), library = root.appendingPathComponent("audiosession")
        let modules = app.appendingPathComponent(".build/debug/Modules/AVFAudio.swiftmodule")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let map = library.appendingPathComponent("Sources/CSystemd/module.modulemap")
        try FileManager.default.createDirectory(at: map.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "module CSystemd {}\n".write(to: map, atomically: true, encoding: .utf8)
        let state = """
            {"object": {"dependencies": [{"packageRef": {"kind": "fileSystem", "location": "\(library.path)"}}]}}
            """
        try state.write(to: app.appendingPathComponent(".build/workspace-state.json"), atomically: true, encoding: .utf8)
        let found = FixedSourcesBuild.Modules.at(app.appendingPathComponent(".build/debug").path)
        #expect(found?.moduleMaps.contains(map.path) == true, "\(String(describing: found?.moduleMaps))")
    }

    @Test(
        "Issue 58: an app whose build failed on its own code (no .build/debug link yet) is checked against the modules in .build/TRIPLE/debug"
    )
    func modulesOfAFailedBuild() throws {
        let app = FileManager.default.temporaryDirectory.appendingPathComponent("port-unbuilt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: app) }
        let modules = app.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/Modules/AVFAudio.swiftmodule")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let sources = app.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent(".build/debug").path))
        let found = FixedSourcesBuild.Modules.find(explicit: nil, from: sources.path, tool: "/nonexistent/audiosession-port")
        #expect(
            found?.swiftModules == app.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/Modules").path,
            "\(String(describing: found?.swiftModules))")
    }

    @Test("Without this package's modules, it is not built, and it says how to give them")
    func notBuiltWithoutModules() {
        let outcome = FixedSourcesBuild.check([(path: "A.swift", text: "let a = 1\n")], modules: nil)
        guard case .notBuilt(let why) = outcome else {
            Issue.record("expected not built, got \(outcome)")
            return
        }
        #expect(why.contains("--modules"))
        #expect(FixedSourcesBuild.Modules.at(FileManager.default.temporaryDirectory.path) == nil, "no AVFAudio module there")
    }

    @Test("The compiler's lines: errors kept (warnings and notes not), each copy's path put back")
    func errorLines() {
        let output = """
            /tmp/x/0/Player.swift:4:9: warning: variable 'unused' was never used
            /tmp/x/0/Player.swift:7:3: error: cannot find 'UIApplication' in scope
            /tmp/x/1/main.swift:1:1: note: did you mean
            <unknown>:0: error: missing required module 'Helpers'
            """
        let errors = FixedSourcesBuild.errors(
            in: output,
            copies: [
                (copy: "/tmp/x/0/Player.swift", original: "Sources/Player.swift"),
                (copy: "/tmp/x/1/main.swift", original: "main.swift"),
            ])
        #expect(
            errors == [
                "Sources/Player.swift:7:3: error: cannot find 'UIApplication' in scope",
                "<unknown>:0: error: missing required module 'Helpers'",
            ])
    }
}
