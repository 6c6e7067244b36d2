import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `audiosession port PATH...`: the porting assistant. It is built on swift-syntax in a package
/// of its own (Tools/PortingAssistant), so this command finds its binary, `audiosession-port`,
/// and runs it: beside this executable (an installation), on PATH, or in the repository's
/// Tools/PortingAssistant build.
struct Port: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report what in iOS Swift sources will not build on Linux; with --fix, rewrite the mechanical cases.",
        discussion: """
            Runs the porting assistant (audiosession-port, built with \
            `swift build --package-path Tools/PortingAssistant`). Fixed: selector-based NotificationCenter \
            observers (also in @MainActor classes, handlers taking NSNotification, and extensions in another of \
            the files given: give the whole folder), @objc, @objcMembers and \
            dynamic where nothing needs them, removeObserver(self), `catch let error as NSError` as the last \
            clause, NSValue.getValue for the session's numbers, import os.log, and #if os(iOS) (and like) \
            regions around audio-session code that need nothing else from iOS. Reported: UIKit, CallKit, other \
            selectors and @objc, key-value observing. Then the fixed files are type-checked against this \
            package's modules: "nothing left" only for code that builds here. A summary ends the output. Exit \
            status: 0 when nothing is left for a person and the fixed files build (with --check: when nothing \
            is found at all), 1 otherwise, 2 for an unreadable file or a missing assistant, 3 when the files \
            could not be built (it says why).
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

    func run() throws {
        guard let assistant = Self.assistant() else {
            printError(
                """
                audiosession port: the porting assistant is not built. It uses swift-syntax, kept out of the main build:
                  swift build --package-path Tools/PortingAssistant
                then run this again (or put Tools/PortingAssistant/.build/debug/audiosession-port on PATH).
                """)
            throw ExitCode(2)
        }
        let arguments =
            [assistant] + (fix ? ["--fix"] : []) + (check ? ["--check"] : []) + (noBuild ? ["--no-build"] : [])
            + (modules.map { ["--modules", $0] } ?? []) + paths
        let argv = arguments.map { strdup($0) } + [nil]
        execv(assistant, argv)
        printError("audiosession port: cannot run \(assistant): \(String(cString: strerror(errno)))")
        throw ExitCode(2)
    }

    /// The assistant's binary, if one is built or installed.
    static func assistant() -> String? { ExternalTool.find("audiosession-port", package: "Tools/PortingAssistant") }
}

/// A tool in a binary of its own: beside this executable (an installation, or this package's
/// build), on PATH, or — for one in a package of its own, to keep its heavy dependency out of the
/// main build (`package`) — in that package's build in the repository.
enum ExternalTool {
    static func find(_ name: String, package: String? = nil) -> String? {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [me.deletingLastPathComponent().appendingPathComponent(name).path]
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append("\(directory)/\(name)")
        }
        // .build/<triple>/<configuration>/audiosession in a checkout: the repository is three up.
        let repository = me.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            if let package {
                candidates.append(repository.appendingPathComponent("\(package)/.build/\(configuration)/\(name)").path)
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Replaces this process with the tool; returns only if it cannot be run.
    static func exec(_ path: String, _ arguments: [String]) -> Never {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        printError("audiosession: cannot run \(path): \(String(cString: strerror(errno)))")
        exit(2)
    }
}
