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
            "PodcastPlayer.swift", "CallAudio.swift", "RouteMonitor.swift", "GameAudio.swift", "InterruptionReader.swift",
            "NowPlayingController.swift", "TrackObserver.swift",
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

    @Test(
        "Issue 58: a class and its observing extension in two files, examined together, are fixed into the two ported files the iOS-style app builds and runs (the token kept in the class, not private)"
    )
    func observersAcrossFiles() throws {
        let names = ["EpisodeQueue.swift", "EpisodeQueue+Observing.swift"]
        let files = try names.map { ($0, try Self.read(Self.package.appendingPathComponent("Corpus/\($0)"))) }
        let reports = PortingAssistant.examine(files: files)
        #expect(reports[0].findings.isEmpty, "the class's file has nothing of its own: \(reports[0].findings)")
        #expect(reports[1].findings.count == 5 && reports[1].findings.allSatisfy(\.isFixable), "\(reports[1].findings)")
        for (name, report) in zip(names, reports) {
            #expect(report.remaining.isEmpty, "\(name) left by hand: \(report.remaining)")
            let expected = try Self.read(Self.ported.appendingPathComponent(name))
            #expect(report.fixedSource == expected, "the fixed \(name) differs from Compatibility's Ported/\(name)")
        }
        let again = PortingAssistant.examine(files: zip(names, reports.map(\.fixedSource)).map { ($0, $1) })
        #expect(again.allSatisfy { $0.findings.isEmpty }, "fixing twice changes nothing")
        // The extension alone: its class is in none of the files given — left for a person, saying so.
        let alone = PortingAssistant.examine(files: [files[1]])
        #expect(alone[0].remaining.contains { $0.message.contains("give it the class's file too") }, "\(alone[0].remaining)")
    }

    @Test(
        "Issue 50: a selector observer in an extension is fixed when its class is in the same file (the token kept in the class, so removeObserver(self, name:object:) in the extension removes it); in an extension of a class declared elsewhere it is left for a person, saying why"
    )
    func observersInExtensions() {
        let add =
            "NotificationCenter.default.addObserver(self, selector: #selector(changed(_:)), name: .init(\"x\"), object: nil)"
        let sameFile = PortingAssistant.examine(
            """
            import Foundation
            final class Screen: NSObject {}
            extension Screen {
                func listen() {
                    \(add)
                }
                func quiet() { NotificationCenter.default.removeObserver(self, name: .init("x"), object: nil) }
                @objc func changed(_ note: Notification) {}
            }
            """)
        #expect(sameFile.remaining.isEmpty, "\(sameFile.remaining)")
        #expect(
            sameFile.fixedSource.contains(
                "final class Screen: NSObject {\n    private var audioSessionObservers: [(name: Notification.Name"))
        #expect(
            sameFile.fixedSource.contains("audioSessionObservers.removeAll { observer in guard observer.name == .init(\"x\")"))
        let elsewhere = PortingAssistant.examine(
            """
            import Foundation
            extension Screen {
                func listen() {
                    \(add)
                }
                @objc func changed(_ note: Notification) {}
            }
            """)
        #expect(
            elsewhere.remaining.contains { $0.kind == .selector && $0.message.contains("keep the token in the class") },
            "\(elsewhere.remaining)")
    }

    @Test("What is not mechanical is reported with what to do instead, and left as it is")
    func manualFindings() throws {
        let source = try Self.read(Self.package.appendingPathComponent("Corpus/Manual/AudioManager.swift"))
        let report = PortingAssistant.examine(source, fileName: "AudioManager.swift")
        // Combine, AVKit and @Published build as they are (the Combine and AVKit products): no finding.
        #expect(report.findings.map(\.kind) == [.keyValueObserving, .objc, .selector])
        #expect(report.findings.map(\.line) == [13, 18, 19])
        // The target action's @objc: nothing on Linux calls through it, so it goes (issue 41);
        // the key-value observing and the selector stay for a person, the code as it was.
        #expect(report.findings.map(\.isFixable) == [false, true, false])
        #expect(
            report.fixedSource == source.replacingOccurrences(of: "    @objc func buttonTapped", with: "    func buttonTapped"))
    }

    @Test(
        "import os.log becomes import os; dynamic goes where nothing observes key paths, and stays for a person where something does"
    )
    func osLogAndDynamic() {
        let log = PortingAssistant.examine("import os.log\nimport os.signpost\nlet l = Logger()\n")
        #expect(log.fixedSource == "import os\nimport os\nlet l = Logger()\n" && log.remaining.isEmpty)
        let plain = PortingAssistant.examine("final class A { dynamic var x = 0 }\n")
        #expect(plain.fixedSource == "final class A { var x = 0 }\n" && plain.remaining.isEmpty)
        let observed = PortingAssistant.examine(
            "final class A { dynamic var x = 0\n func f() { _ = self.observe(\\.x) { _, _ in } } }\n")
        #expect(observed.findings.map(\.isFixable) == [false, false], "\(observed.findings)")
    }

    @Test(
        "Issue 58: UIApplication's remote-control events, state and idle timer and UIImage build as they are (this package's UIKit); import UIKit becomes Foundation when nothing of UIKit is used; a name it does not offer is left for a person, saying what it offers"
    )
    func uiKit() {
        let radio = """
            import UIKit
            import MediaPlayer

            final class Radio {
                func start() {
                    UIApplication.shared.beginReceivingRemoteControlEvents()
                    UIApplication.shared.isIdleTimerDisabled = true
                    if let logo = UIImage(named: "station") { _ = logo.pngData() }
                    MPRemoteCommandCenter.shared().playCommand.isEnabled = true
                }
            }

            """
        let report = PortingAssistant.examine(radio, fileName: "Radio.swift")
        #expect(report.findings.isEmpty && report.fixedSource == radio, "\(report.findings)")
        let unused = PortingAssistant.examine("import UIKit\nimport AVFoundation\nlet s = AVAudioSession.sharedInstance()\n")
        #expect(unused.findings.map(\.isFixable) == [true] && unused.remaining.isEmpty)
        #expect(unused.fixedSource == "import Foundation\nimport AVFoundation\nlet s = AVAudioSession.sharedInstance()\n")
        for (use, name) in [
            ("let l = CALayer()", "CALayer"), ("let c: CGColor? = nil", "CGColor"), ("let v = UIView()", "UIView"),
        ] {
            let used = PortingAssistant.examine(
                "import UIKit\n#if canImport(UIKit)\n#endif\nlet i = UIImage(named: \"x\")\n\(use)\n")
            #expect(
                used.findings.map(\.isFixable) == [false] && used.fixedSource.hasPrefix("import UIKit")
                    && used.findings[0].message.hasPrefix("\(name): the UIKit package here (Porting/UIKit) offers only"),
                "\(use): \(used.findings)"
            )
        }
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

    @Test("#if regions: false on Linux with session code reported; widened only when they need nothing else from iOS")
    func compiledOutRegions() {
        let source = """
            import AVFoundation

            #if os(iOS)
            func a() { try? AVAudioSession.sharedInstance().setActive(true) }
            #endif

            #if canImport(UIKit) && !targetEnvironment(simulator)
            func b() { _ = AVAudioSession.sharedInstance().category }
            #endif

            #if os(iOS)
            func c() { UIApplication.shared.isIdleTimerDisabled = true; _ = AVAudioSession.sharedInstance() }
            #else
            func c() {}
            #endif

            #if os(macOS)
            func d() {}
            #else
            func d() { _ = AVAudioSession.sharedInstance() }
            #endif

            #if os(iOS)
            func e() { print("no session here") }
            #endif

            #if DEBUG
            func f() { _ = AVAudioSession.sharedInstance() }
            #endif
            """
        let report = PortingAssistant.examine(source)
        let lines = report.findings.map { "\($0.line) \($0.kind.rawValue) \($0.isFixable)" }
        // a and b widened; c needs UIKit (reported); d and f are taken on Linux or unknown; e has no session code.
        #expect(
            lines == [
                "3 compiled out on Linux true", "7 compiled out on Linux true", "11 compiled out on Linux false",
            ], "\(lines)")
        #expect(report.fixedSource.contains("#if os(iOS) || os(Linux)\nfunc a()"))
        #expect(report.fixedSource.contains("#if (canImport(UIKit) && !targetEnvironment(simulator)) || os(Linux)\nfunc b()"))
        #expect(report.findings[2].message.contains("UIApplication"))
        #expect(report.remaining.map(\.line) == [11], "only c is left for a person")
    }

    @Test("NSValue.getValue: integers and RawValues by numericCast, enums by rawValue, unknown types left for a person")
    func getValue() {
        let source = """
            import AVFoundation

            func read(_ info: [AnyHashable: Any], other: inout UInt) {
                var reason: UInt32 = 0
                (info["r"] as! NSValue).getValue(&reason)
                var kind: AVAudioSession.InterruptionType = .began
                (info["k"] as? NSValue)?.getValue(&kind)
                (info["o"] as! NSValue).getValue(&other)
            }
            """
        let report = PortingAssistant.examine(source)
        #expect(report.findings.map(\.isFixable) == [true, true, false], "\(report.findings)")
        #expect(report.fixedSource.contains("if let value = info[\"r\"] as? UInt { reason = numericCast(value) }"))
        #expect(
            report.fixedSource.contains(
                "if let value = info[\"k\"] as? UInt, let typed = AVAudioSession.InterruptionType(rawValue: numericCast(value)) { kind = typed }"
            ))
        #expect(report.remaining.count == 1 && report.remaining[0].message.contains("traps on Linux"))
    }

    @Test("removeObserver(self, name:object:) removes exactly that notification's tokens; one naming another object is left")
    func removeByName() {
        let source = """
            import Foundation

            final class Watcher: NSObject {
                override init() {
                    super.init()
                    NotificationCenter.default.addObserver(self, selector: #selector(a(_:)), name: .init("a"), object: nil)
                    NotificationCenter.default.addObserver(self, selector: #selector(b(_:)), name: .init("b"), object: nil)
                }

                func stopA() { NotificationCenter.default.removeObserver(self, name: .init("a"), object: nil) }
                func stopB(_ sender: AnyObject) { NotificationCenter.default.removeObserver(self, name: .init("b"), object: sender) }

                @objc func a(_ n: Notification) {}
                @objc func b(_ n: Notification) {}
            }
            """
        let report = PortingAssistant.examine(source)
        #expect(
            report.fixedSource.contains(
                "private var audioSessionObservers: [(name: Notification.Name, token: NSObjectProtocol)] = []"))
        #expect(
            report.fixedSource.contains("audioSessionObservers.append((.init(\"a\"), NotificationCenter.default.addObserver("))
        #expect(
            report.fixedSource.contains(
                "audioSessionObservers.removeAll { observer in guard observer.name == .init(\"a\") else { return false }; NotificationCenter.default.removeObserver(observer.token); return true }"
            ))
        #expect(
            report.fixedSource.contains("audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0.token) }"))
        #expect(report.remaining.map(\.kind) == [.removeObserver], "the one naming `sender` is left: \(report.remaining)")
    }
}
