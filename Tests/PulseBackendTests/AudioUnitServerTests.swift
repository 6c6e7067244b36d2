import AudioSession
import AudioSessionMedia
import AudioSessionModel
import Foundation
import Testing

/// §19 SO5, SO7 on real servers: a C app's I/O units (Tests/C/unit-app.c) through a daemon —
/// RemoteIO's render callback heard on the speaker's monitor, stopped by a call and started again
/// by the app after it, nothing left after Dispose; VoiceProcessingIO's input callback renders the
/// microphone's tone.
@Suite("The I/O units on a real server (SO5, SO7)", .serialized)
struct AudioUnitServerTests {
    @Test(
        "SO5: RemoteIO's render callback is heard at its level, its stream the app's own; a call stops the unit (IsRunning 0) and silences it; after the end AudioOutputUnitStart succeeds, heard again; Dispose leaves no stream",
        arguments: ServerKind.allCases)
    func remoteIO(_ kind: ServerKind) throws {
        try AudioQueueServerTests.heardAsItsApp(kind, program: "unit-app", ["tone", "15"], app: "synth")
    }

    @Test(
        "SO5: VoiceProcessingIO's input callback renders the microphone's tone — 440 Hz, at its level",
        arguments: ServerKind.allCases)
    func voiceProcessingIO(_ kind: ServerKind) throws {
        let desktop = try PlayersBridgeTests.Desktop(kind, config: "permission-prompt: grant\n")
        defer { desktop.stop() }
        // The microphone hears the speaker (PulseFixture): another app plays the tone there, mixable.
        let toneApp = AudioSession(appID: "tone", capabilities: .backgroundAudio, transport: desktop.transport)
        defer { toneApp.close() }
        try toneApp.setCategory(.playback, options: [.mixWithOthers])
        let tone = try AudioPlayer(contentsOf: desktop.tone, session: toneApp, endpoint: .soundServer(desktop.server.server))
        try tone.play()
        defer { tone.stop() }
        let executable = try AudioQueueServerTests.cProgram("unit-app")
        desktop.extraEnvironment = ["AUDIOSESSION_SOCKET": desktop.daemon.socket, "AUDIOSESSION_APP_ID": "softphone"]
        _ = try desktop.start([executable, "voice"], log: "voice.log")
        let log = { desktop.log("voice.log") }
        #expect(eventually(within: 20) { log().contains("recorded ") }, "\(kind): \(log()) \(desktop.daemonLog)")
        let line = log().split(separator: "\n").first { $0.hasPrefix("recorded ") }.map(String.init) ?? ""
        let numbers = line.split(whereSeparator: { " ;,".contains($0) }).compactMap { Double($0) }
        try #require(numbers.count == 7, "\(kind): \(line)")
        let (level, at440, at330, at550) = (numbers[0], numbers[2], numbers[4], numbers[6])
        #expect(abs(level - 20 * log10(0.2)) < 3.5, "\(kind): recorded at \(level) dBFS, the tone's −14 dBFS: \(line)")
        #expect(at440 > 30 * max(at330, at550), "\(kind): its frequency is the tone's: \(line)")
    }
}
