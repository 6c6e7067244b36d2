import AudioSession
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Testing

/// SPEC CL4 and CL5 (revision 7) on real servers: two programs in a call at once (two fake call
/// programs, as two Mumble clients were), and a softphone's first moments (its playback before
/// its capture, the capture closed and reopened, as baresip dials) — a scripted MPRIS player's
/// music playing.
extension CallTests {
    /// A call's app as status lists it, by its program's name.
    static func call(_ desktop: PlayersBridgeTests.Desktop, named name: String) -> AppSnapshot? {
        (try? desktop.snapshot().apps)?.first { $0.kind == .call && $0.player == name }
    }

    @Test(
        "CL5 (revision 7): a second call begins and ends while the first goes on — the music stays paused until the first ends, the first is active again at once and throughout, neither call's streams are muted",
        arguments: ServerKind.allCases)
    func twoCallsAtOnce(_ kind: ServerKind) throws {
        let desktop = try Self.desktopWithMusic(kind)
        defer { desktop.stop() }
        let first = try desktop.spawn(
            // Recording until told (SIGUSR1): a fixed 8 s ended it before the second call did once,
            // on a loaded machine, and the checks below then saw no first call at all.
            [try Self.fakeCall(), "--source", "mic", "--name", "First", "record", "60000", "quiet", "3000"], log: "first.log")
        defer { PulseFixture.end(first) }
        #expect(
            eventually(within: 5) { Self.call(desktop, named: "First")?.isActive == true }, "the first call. \(desktop.daemonLog)"
        )
        #expect(eventually { desktop.fakeLog("music").contains("status Paused") }, "the music paused")
        let second = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "--name", "Second", "record", "1500", "quiet", "3000"], log: "second.log")
        defer { PulseFixture.end(second) }
        // While each is a call, its playback is never muted (after its end, a program still
        // playing is other audio again, and muted while another call plays: OA4). A sample is kept
        // only if the call had not ended when it was taken (its end is logged before any mute).
        func ended(_ name: String) -> Bool {
            desktop.daemonLog.split(separator: "\n").contains {
                $0.contains("call ended (CL5)") && $0.contains("program=\(name) ")
            }
        }
        var muted: Set<String> = []
        let deadline = Date().addingTimeInterval(8)
        while !desktop.daemonLog.contains("program=Second"), Date() < deadline { usleep(50_000) }
        while Date() < deadline, !ended("Second") {
            let firstMuted = desktop.streamMuted(of: first), secondMuted = desktop.streamMuted(of: second)
            if firstMuted == true, !ended("First") { muted.insert("first") }
            if secondMuted == true, !ended("Second") { muted.insert("second") }
            usleep(100_000)
        }
        #expect(desktop.daemonLog.contains("call ended (CL5)"), "the second call ended. \(desktop.daemonLog)")
        #expect(
            eventually(within: 2) { Self.call(desktop, named: "First")?.isActive == true },
            "CL5: the first call is active again: \(String(describing: Self.call(desktop, named: "First")))")
        usleep(500_000)  // a moment in which the music must not come back
        let changes = desktop.fakeLog("music").split(separator: "\n").filter { $0.hasPrefix("status ") }
        #expect(changes.map { String($0.prefix(13)) } == ["status Paused"], "the music stays paused: \(changes)")
        #expect(Self.call(desktop, named: "First")?.isActive == true, "and the first call active")
        // The first call ends: the music plays again after its hangover.
        kill(first, SIGUSR1)
        #expect(eventually(within: 8) { desktop.log("first.log").contains("capture closed") })
        #expect(
            eventually(within: 5) { desktop.fakeLog("music").split(separator: "\n").last?.hasPrefix("status Playing") == true },
            "the music plays again after the last call: \(desktop.fakeLog("music"))")
        #expect(muted.isEmpty, "CL4: a call's streams were muted: \(muted)\n\(desktop.daemonLog.suffix(3_000))")
    }

    @Test(
        "CL4 (revision 7): a program whose playback opens before its capture, under other-audio: mute with music playing, which closes and reopens its capture as it dials: once it records, its streams are never muted again (server and log)",
        arguments: ServerKind.allCases)
    func dialingNeverMutedAgain(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind, config: "policy:\n  other-audio: mute\n")
        defer { desktop.stop() }
        _ = try desktop.fake("music")
        #expect(eventually { desktop.hasApp { $0.app == "mpris.music" && $0.isActive } }, "\(desktop.bridgeLog)")
        let caller = try desktop.spawn(
            [try Self.fakeCall(), "--source", "mic", "record", "150", "quiet", "100", "record", "2500", "quiet", "300"],
            log: "dial.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 5) { desktop.log("dial.log").contains("capture open at") }, "\(desktop.log("dial.log"))")
        let index = desktop.streamBlock(of: caller)?.split(separator: "\n").first.map { String($0.filter(\.isNumber)) }
        let logBefore = desktop.daemonLog.count
        var samples: [Bool] = []
        for _ in 0..<40 {  // every 50 ms from its first capture, through the reopening, past after-ms
            if let muted = desktop.streamMuted(of: caller) { samples.append(muted) }
            usleep(50_000)
        }
        let after = String(desktop.daemonLog.dropFirst(logBefore))
        let mutes = after.split(separator: "\n").filter {
            $0.contains("] muted a stream") && $0.contains("stream=\(index ?? "?") ")
        }
        #expect(samples.count >= 20 && !samples.contains(true), "CL4: muted on the server: \(samples)\n\(desktop.daemonLog)")
        #expect(mutes.isEmpty, "CL4: muted again (stream \(index ?? "?")): \(mutes)\n\(desktop.daemonLog)")
    }
}
