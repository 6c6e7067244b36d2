import AudioSession
import AudioSessionMedia
import AudioSessionModel
import Foundation
import Testing

/// §19 SO6 on real servers: a C app's system sound (Tests/C/sound-app.c) through a daemon — heard
/// while another app's non-mixable session plays, neither ducked nor ducking nor interrupting it;
/// its completion called; silent during a system call.
@Suite("System sounds on a real server (SO6)", .serialized)
struct SystemSoundServerTests {
    @Test(
        "SO6: a system sound is heard over another app's non-mixable music, which is neither ducked nor interrupted; it is not ducked itself; completed; silent during a system call",
        arguments: ServerKind.allCases)
    func heardOverMusic(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let monitor = try desktop.server.recordMonitor(of: "speaker", channels: 2)
        defer { monitor.stop() }
        // Music: a non-mixable session playing the desktop's tone (−14 dBFS).
        let music = AudioSession(appID: "music", capabilities: .backgroundAudio, transport: desktop.transport)
        defer { music.close() }
        try music.setCategory(.playback)
        let player = try AudioPlayer(contentsOf: desktop.tone, session: music, endpoint: .soundServer(desktop.server.server))
        try player.play()
        defer { player.stop() }
        let alone = monitor.settle { abs($0 - 20 * log10(0.2)) < 1 }
        #expect(abs(alone - 20 * log10(0.2)) < 1, "\(kind): the music alone at \(alone) dBFS")

        let executable = try AudioQueueServerTests.cProgram("sound-app")
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "game"]
        _ = try desktop.start([executable, "play", desktop.server.directory, "2"], log: "sound.log")
        let log = { desktop.log("sound.log") }
        #expect(eventually { log().contains("played 1") }, "\(kind): \(log())")
        // Both heard: the click (0.5) and the music (0.2) at once, a sum of two sines' powers.
        let together = monitor.settle(within: 3) { $0 > -8 }
        let expected = 10 * log10(0.5 * 0.5 + 0.2 * 0.2)
        #expect(abs(together - expected) < 1.5, "\(kind): heard together at \(together) dBFS, \(expected) expected")
        let block = (try? desktop.server.pactl(["list", "sink-inputs"]))?.components(separatedBy: "Sink Input #")
            .first { $0.contains("audiosession.system-sound = \"game\"") }
        #expect(block?.contains("Mute: no") == true, "\(kind): the system sound is not muted: \(block ?? "no stream")")
        #expect(block.map { !$0.contains("Volume:") || $0.contains("100%") } == true, "\(kind): not ducked: \(block ?? "")")
        #expect(player.isPlaying, "\(kind): the music was not interrupted")
        let musicStream = try desktop.server.ownStream(of: "music")
        #expect(
            musicStream?.muted == false && (musicStream?.decibels ?? 0) > -0.5,
            "\(kind): the music not ducked: \(String(describing: musicStream))")
        #expect(eventually { log().contains("completed 1") }, "\(kind): its completion: \(log())")
        #expect((try? desktop.snapshot().apps.first { $0.app.rawValue == "game" }?.isActive) != true, "\(kind): no activation")

        // A system call: the music is silenced and so is the click (completed all the same).
        try desktop.system(.systemSession(.call, begin: true))
        #expect(monitor.settleToSilence() < -60, "\(kind): the call silences the music")
        #expect(eventually { log().contains("played 2") }, "\(kind): \(log())")
        let during = monitor.level(over: 1.0)
        #expect(during < -60, "\(kind): the click is silent during the call: \(during) dBFS")
        #expect(eventually { log().contains("completed 2") }, "\(kind): its completion: \(log())")
        try desktop.system(.systemSession(.call, begin: false))
    }

    /// Its stream was let go as soon as its last frame was written: what the server still held of
    /// it (up to the stream's 150 ms buffer) was never heard. (`bufferedSeconds` read 0 on every
    /// server stream: the server's timing was never asked for.)
    @Test(
        "SO6: a system sound is heard whole before its completion (0.8 s click, recorded sample by sample)",
        arguments: ServerKind.allCases)
    func heardWhole(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind)
        defer { desktop.stop() }
        let recording = try WriteAheadRecordedTests.Recording(desktop.server)
        if kind == .pulseaudio {  // an idle null sink renders 2 s of silence ahead: restarted at the recording's latency
            _ = try desktop.server.pactl(["suspend-sink", "speaker", "1"])
            _ = try desktop.server.pactl(["suspend-sink", "speaker", "0"])
        }
        let executable = try AudioQueueServerTests.cProgram("sound-app")
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "game"]
        _ = try desktop.start([executable, "play", desktop.server.directory, "1"], log: "sound.log")
        let log = { desktop.log("sound.log") }
        #expect(eventually { log().contains("completed 1") }, "\(kind): its completion: \(log())")
        usleep(300_000)  // what the monitor still had
        let levels = WriteAheadRecordedTests.levels(recording.stop())
        let onset = try #require(levels.firstIndex { $0 > -20 }, "\(kind): the click was not heard")
        let last = try #require(levels.lastIndex { $0 > -40 })
        let heardFor = Double(last - onset + 1) / 100
        print("\(kind): the 0.8 s click heard for \(heardFor) s")
        #expect(abs(heardFor - 0.8) < 0.03, "\(kind): the 0.8 s click was heard for \(heardFor) s")
    }
}
