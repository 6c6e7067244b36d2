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
        try AudioQueueServerTests.recordsTheTone(kind, program: "unit-app", ["voice"], app: "softphone")
    }
}
