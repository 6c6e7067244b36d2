import Foundation
import PortingAssistantCore
import Testing

/// The porting assistant on a corpus of iOS-style files of our own: each original in Corpus/
/// is fixed into exactly the file the iOS-style app builds against AVFoundation and runs
/// (Compatibility/Sources/ios-style-app/Ported/), nothing is left to do by hand, and fixing twice
/// changes nothing. What cannot be fixed is reported with what to do instead.
@Suite("Porting assistant")
struct PortingAssistantTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ported = package.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Compatibility/Sources/ios-style-app/Ported")

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test(
        "Each corpus file is fixed into the ported file the iOS-style app builds and runs",
        arguments: [
            "PodcastPlayer.swift", "CallAudio.swift", "RouteMonitor.swift",
        ])
    func corpusRoundTrips(file: String) throws {
        let original = try Self.read(Self.package.appendingPathComponent("Corpus/\(file)"))
        let report = PortingAssistant.examine(original, fileName: file)
        #expect(!report.findings.isEmpty && report.findings.allSatisfy(\.isFixable), "\(report.findings)")
        #expect(report.remaining.isEmpty, "left by hand: \(report.remaining)")
        let expected = try Self.read(Self.ported.appendingPathComponent(file))
        #expect(report.fixedSource == expected, "the fixed \(file) differs from Compatibility's Ported/\(file)")
        let again = PortingAssistant.examine(report.fixedSource, fileName: file)
        #expect(again.findings.isEmpty && again.fixedSource == report.fixedSource, "fixing twice changes nothing")
    }

    @Test("What is not mechanical is reported with what to do instead, and left as it is")
    func manualFindings() throws {
        let source = try Self.read(Self.package.appendingPathComponent("Corpus/Manual/AudioManager.swift"))
        let report = PortingAssistant.examine(source, fileName: "AudioManager.swift")
        #expect(report.fixedSource == source)
        #expect(report.findings.allSatisfy { !$0.isFixable })
        // Combine, AVKit and @Published build as they are (the Combine and AVKit products): no finding.
        #expect(report.findings.map(\.kind) == [.keyValueObserving, .objc, .selector])
        #expect(report.findings.map(\.line) == [13, 18, 19])
    }

    @Test("Selector observers it cannot rewrite and guarded NSError catches are reported or left alone")
    func edgeCases() {
        let source = """
            import Foundation

            final class Odd: NSObject {
                func register(other: NSObject) {
                    NotificationCenter.default.addObserver(other, selector: #selector(ping), name: .init("a"), object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(elsewhere), name: .init("b"), object: nil)
                    NotificationCenter.default.removeObserver(self, name: .init("b"), object: nil)
                }

                @objc func ping() {}

                func work() {
                    do {
                        try something()
                    } catch let error as NSError where error.code == 1 {
                        print(error)
                    }
                    do {
                        try something()
                    } catch let error as NSError {
                        print(error)
                    } catch {
                        print(error)
                    }
                }
            }
            """
        let report = PortingAssistant.examine(source)
        let lines = report.findings.map { "\($0.line) \($0.kind.rawValue) \($0.isFixable)" }
        #expect(
            lines == [
                // removeObserver(self, name:object:) builds on Linux; with nothing rewritten it stays right.
                "5 #selector false", "6 selector observer false", "10 @objc false",
            ], "\(lines)")
        #expect(report.fixedSource == source)
    }

    @Test("A class with a deinit of its own keeps it, with the tokens removed first")
    func existingDeinit() {
        let source = """
            import Foundation

            final class Keeper {
                var count = 0

                init() {
                    NotificationCenter.default.addObserver(self, selector: #selector(tick(_:)), name: .init("t"), object: nil)
                }

                deinit {
                    print("bye")
                }

                @objc func tick(_ note: Notification) { count += 1 }
            }
            """
        let report = PortingAssistant.examine(source)
        #expect(report.remaining.isEmpty)
        #expect(
            report.fixedSource.contains(
                "deinit {\n        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0) }\n        print(\"bye\")"
            ))
        #expect(report.fixedSource.contains("    func tick(_ note: Notification)"))
        #expect(report.fixedSource.components(separatedBy: "deinit").count == 2, "one deinit")
    }
}
