import ArgumentParser
import Foundation
import PortingAssistantBuild
import PortingAssistantCore

/// `audiosession port PATH...` (the `audiosession` CLI runs this binary): reports each construct
/// of iOS Swift sources that will not build on Linux and why; `--fix` rewrites the mechanical
/// ones in place and prints a unified diff.
@main
struct Port: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession port",
        abstract: "Report what in iOS Swift sources will not build on Linux; with --fix, rewrite the mechanical cases.",
        discussion: """
            Fixed: selector-based NotificationCenter observers (into token observers removed when the object \
            goes), @objc on their handlers, removeObserver(self) and removeObserver(self, name:object:) (the \
            matching tokens), `catch let error as NSError` as the last clause, NSValue.getValue for the \
            session's numbers (read typed), and #if os(iOS), targetEnvironment or canImport(UIKit) regions \
            around audio-session code that need nothing else from iOS (widened to Linux), `import UIKit` in a \
            file that uses nothing of it (import Foundation), `import os.log` (import os), @objc, @objcMembers \
            and dynamic where nothing needs them (removed, and said), handlers taking NSNotification (given \
            one) and observers of @MainActor classes (called on the main queue in its isolation). Reported for \
            a person: such regions that do need more, UIKit used, CallKit, other selectors and the @objc they \
            name, key-value observing. Then the fixed text of all the files given is type-checked together \
            against this package's modules (those of the package in the current directory or above, once \
            built; else those of the checkout this assistant was built in; or --modules): "nothing left" is \
            said only of code that builds here. A summary ends the output. Exit status: 0 when nothing is left \
            for a person and the fixed files build (with --check: when nothing is found at all and they \
            build), 1 otherwise, 2 when a file cannot be read, 3 when nothing is left that the assistant \
            sees but the files could not be built (it says why).
            """)

    @Argument(help: "Swift files, or directories searched for .swift files.")
    var paths: [String]

    @Flag(help: "Rewrite the mechanical cases in place and print the diff.")
    var fix = false

    @Flag(help: "For CI: write nothing; exit 1 when anything is found, fixable or not.")
    var check = false

    @Option(help: "A built package's .build/debug (or its Modules/) holding AVFAudio's module, to build against.")
    var modules: String?

    @Flag(help: "Do not type-check the fixed files (the summary then says they were not built).")
    var noBuild = false

    func validate() throws {
        if fix && check { throw ValidationError("--fix rewrites files and --check writes nothing: give one of them") }
    }

    func run() throws {
        var fixed = 0
        var fixable = 0
        var manual = 0
        var filesLeft: [String] = []
        var fixedFiles: [(path: String, text: String)] = []
        let files = try swiftFiles()
        var sources: [String] = []
        for file in files {
            do { sources.append(try String(contentsOfFile: file, encoding: .utf8)) } catch {
                FileHandle.standardError.write(
                    Data("audiosession port: cannot read \(file): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        // Together: a class's extension in another of the files is its member (its observers' tokens).
        let reports = PortingAssistant.examine(files: Array(zip(files, sources)))
        for (file, (source, report)) in zip(files, zip(sources, reports)) {
            for finding in report.findings { print("\(file):\(finding)") }
            let left: Int
            if fix, report.fixedSource != source {
                try report.fixedSource.write(toFile: file, atomically: true, encoding: .utf8)
                print(Self.diff(source, report.fixedSource, file: file), terminator: "")
                fixed += report.findings.count - report.remaining.count
                left = report.remaining.count
            } else {
                fixable += report.findings.filter(\.isFixable).count
                left = report.findings.filter { !$0.isFixable }.count
            }
            manual += left
            if left > 0 { filesLeft.append(file) }
            fixedFiles.append((file, report.fixedSource))
        }
        let found =
            noBuild
            ? nil
            : FixedSourcesBuild.Modules.find(
                explicit: modules, from: FileManager.default.currentDirectoryPath, tool: "/proc/self/exe")
        // Which build the files are checked against: the app's own package's, once it built this
        // one's modules (even if its own code failed), else this checkout's (issue 58).
        if let found { print("audiosession port: type-checking against \(found.swiftModules)") }
        let built: FixedSourcesBuild.Outcome =
            noBuild
            ? .notBuilt("--no-build")
            : FixedSourcesBuild.check(
                fixedFiles, modules: found,
                missing: modules.map { "\($0) holds no built AVFAudio module (Modules/AVFAudio.swiftmodule)" })
        if case .fails(let errors) = built { for error in errors { print(error) } }
        print(
            Self.summary(files: files.count, fixed: fixed, fixable: fixable, manual: manual, filesLeft: filesLeft, built: built))
        if manual > 0 || (check && fixable > 0) { throw ExitCode(1) }
        switch built {
        case .builds: break
        case .fails: throw ExitCode(1)
        case .notBuilt: if !noBuild { throw ExitCode(3) }
        }
    }

    /// The last line: what was fixed or could be, what is left for a person and where, and
    /// whether the fixed files build here. "Nothing left" only for code the compiler accepted.
    static func summary(
        files: Int, fixed: Int, fixable: Int, manual: Int, filesLeft: [String], built: FixedSourcesBuild.Outcome
    ) -> String {
        var parts = ["audiosession port: \(files) file\(files == 1 ? "" : "s")"]
        if fixed > 0 { parts.append("\(fixed) fixed") }
        if fixable > 0 { parts.append("\(fixable) fixable (--fix rewrites them)") }
        let buildsWord: String
        switch built {
        case .builds: buildsWord = "the fixed files build here"
        case .fails(let errors):
            buildsWord =
                "the fixed files do not build here: \(errors.count) error\(errors.count == 1 ? "" : "s") above, for a person"
        case .notBuilt(let why): buildsWord = "not built: \(why)"
        }
        if manual > 0 {
            parts.append("\(manual) left for a person, in \(filesLeft.joined(separator: ", "))")
        } else if case .builds = built {
            parts.append("nothing left for a person")
        } else {
            parts.append("no finding left")
        }
        parts.append(buildsWord)
        return parts.joined(separator: "; ")
    }

    func swiftFiles() throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("audiosession port: no such file or directory: \(path)\n".utf8))
                throw ExitCode(2)
            }
            if isDirectory.boolValue {
                let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                files += found.filter { $0.hasSuffix(".swift") }.sorted().map { "\(path)/\($0)" }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// `diff -u` of the two texts, labelled with the file's name.
    static func diff(_ old: String, _ new: String, file: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audiosession-port-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = directory.appendingPathComponent("before"), after = directory.appendingPathComponent("after")
        try? old.write(to: before, atomically: true, encoding: .utf8)
        try? new.write(to: after, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        process.arguments = ["-u", "--label", "\(file) (iOS)", "--label", "\(file) (fixed)", before.path, after.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return "(diff unavailable: \(error))\n" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
