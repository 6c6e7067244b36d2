import ArgumentParser
import Foundation
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
            goes), @objc on their handlers, removeObserver(self), and `catch let error as NSError` as the last \
            clause. Reported for a person: Combine (use OpenCombine), UIKit/AVKit/MediaPlayer/CallKit, other \
            selectors and @objc, key-value observing. Exit status: 0 when nothing is left to do by hand, 1 when \
            something is, 2 when a file cannot be read.
            """)

    @Argument(help: "Swift files, or directories searched for .swift files.")
    var paths: [String]

    @Flag(help: "Rewrite the mechanical cases in place and print the diff.")
    var fix = false

    func run() throws {
        var manual = 0
        for file in try swiftFiles() {
            let source: String
            do { source = try String(contentsOfFile: file, encoding: .utf8) } catch {
                FileHandle.standardError.write(
                    Data("audiosession port: cannot read \(file): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
            let report = PortingAssistant.examine(source, fileName: file)
            for finding in report.findings { print("\(file):\(finding)") }
            if fix, report.fixedSource != source {
                try report.fixedSource.write(toFile: file, atomically: true, encoding: .utf8)
                print(Self.diff(source, report.fixedSource, file: file), terminator: "")
                manual += report.remaining.count
            } else {
                manual += report.findings.filter { !fix || !$0.isFixable }.count
            }
        }
        if manual > 0 { throw ExitCode(1) }
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
