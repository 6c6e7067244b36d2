import Foundation
import InMemoryLogging
import Logging
import Testing
import os

/// `import os` over swift-log (issue 41): Apple's logging calls build and write what Apple's
/// write, privacy included.
@Suite("os: Logger, os_log and OSSignposter over swift-log")
struct OSLogTests {
    static func capture() -> (InMemoryLogHandler, OSLog) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        return (handler, OSLog(subsystem: "com.example.app", category: "audio", handler: handler))
    }

    @Test("Logger: each level maps to swift-log's; numbers show, strings are <private> unless .public")
    func loggerLevelsAndPrivacy() {
        let (handler, log) = Self.capture()
        let logger = os.Logger(log)
        let title = "Episode 12"
        logger.info("playing \(title, privacy: .public) at \(1.5, format: .fixed(precision: 2))x, attempt \(3)")
        logger.error("failed for \(title)")
        logger.debug("flag \(true) hex \(255, format: .hex)")
        logger.fault("\(title, align: .left(columns: 12), privacy: .public)|")
        logger.notice("plain")
        let entries = handler.entries
        #expect(entries.map(\.level) == [.info, .error, .debug, .critical, .notice])
        #expect(
            entries.map(\.message.description) == [
                "playing Episode 12 at 1.50x, attempt 3", "failed for <private>", "flag true hex ff", "Episode 12  |", "plain",
            ])
        #expect(entries.first?.metadata["category"] == "audio")
    }

    @Test("os_log: C formats with {public} and {private}; unmarked text is private, numbers are not")
    func osLogFormats() {
        let (handler, log) = Self.capture()
        os_log("route %{public}@ then %@, %d%% at %.1f", log: log, type: .error, "Speaker", "secret", 42, 0.25)
        os_log(.info, log: log, "value %ld %{private}d", 7, 9)
        os_log(.debug, log: log, "interpolated \(5)")
        #expect(
            handler.entries.map(\.message.description) == [
                "route Speaker then <private>, 42% at 0.2", "value 7 <private>", "interpolated 5",
            ])
        #expect(handler.entries.map(\.level) == [.error, .info, .debug])
    }

    @Test("OSSignposter records nothing and runs what it wraps")
    func signposts() {
        let signposter = OSSignposter(subsystem: "com.example.app", category: "audio")
        let state = signposter.beginInterval("load", id: signposter.makeSignpostID())
        signposter.emitEvent("tick")
        signposter.endInterval("load", state)
        #expect(signposter.withIntervalSignpost("work") { 21 * 2 } == 42)
        #expect(!signposter.isEnabled)
    }
}

@Suite("os: os_unfair_lock")
struct UnfairLockTests {
    @Test("os_unfair_lock excludes: two threads adding 100,000 times each under it lose nothing")
    func excludes() async {
        final class Counter: @unchecked Sendable {
            var lock = os_unfair_lock()
            var value = 0
        }
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<100_000 {
                        withUnsafeMutablePointer(to: &counter.lock) { lock in
                            os_unfair_lock_lock(lock)
                            counter.value += 1
                            os_unfair_lock_unlock(lock)
                        }
                    }
                }
            }
        }
        #expect(counter.value == 200_000)
    }
}
