import AudioSession
import AudioSessionMedia
import Foundation
import Testing

/// The recorder on the simulated device: its microphone is a 440 Hz tone at −12 dBFS times the
/// input gain; the file is 16-bit WAV at the session's sample rate and input channels.
@Suite("AudioRecorder on the simulated device", .serialized)
struct AudioRecorderTests {
    @Test func recordsTheMicrophoneAtTheInputGain() throws {  // IO1, HW1, HW4, HW6
        let fixture = try MediaFixture(permissions: .grant)
        defer { fixture.remove() }
        let memo = fixture.session("memo")
        try memo.setCategory(.record)
        try memo.setInputGain(0.5)
        let path = "\(fixture.directory)/memo.wav"
        let recorder = AudioRecorder(path: path, session: memo, endpoint: fixture.endpoint)
        try recorder.record()
        #expect(memo.isActive)  // IO1
        #expect(try memo.status().isInputRunning)
        #expect(eventually { recorder.currentTime > 0.3 })
        recorder.stop()
        #expect(!(try memo.status().isInputRunning))
        let recorded = try SoundFile.read(path)
        #expect(recorded.sampleRate == Int(memo.sampleRate))
        #expect(recorded.channels == memo.inputNumberOfChannels)
        #expect(recorded.duration > 0.3)
        // −12 dBFS × 0.5 = −18 dBFS.
        #expect(abs(Level.dBFS(recorded.samples[...]) - 20 * log10(0.125)) < 0.5)
    }

    @Test func recordsZerosWithoutPermission() throws {  // P3
        let fixture = try MediaFixture(permissions: .deny)
        defer { fixture.remove() }
        let memo = fixture.session("memo")
        try memo.setCategory(.record)
        let path = "\(fixture.directory)/memo.wav"
        let recorder = AudioRecorder(path: path, session: memo, endpoint: fixture.endpoint)
        try recorder.record()  // P3: the prompt is answered "deny" by the policy
        #expect(eventually { recorder.currentTime > 0.2 })
        recorder.stop()
        #expect(memo.recordPermission == .denied)
        let recorded = try SoundFile.read(path)
        #expect(recorded.duration > 0.2)
        #expect(Level.peak(recorded.samples[...]) == 0)
    }

    @Test func aCategoryWithoutInputRecordsNothing() throws {  // IO2
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let music = fixture.session("music")
        try music.setCategory(.playback)
        let path = "\(fixture.directory)/nothing.wav"
        let recorder = AudioRecorder(path: path, session: music, endpoint: fixture.endpoint)
        #expect { try recorder.record() } throws: { error in (error as? SessionError)?.code == .incompatibleCategory }
        #expect(!recorder.isRecording)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func pausesForACallAndRecordsOnAfterIt() throws {  // I1, I3
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let memo = fixture.session("memo")
        try memo.setCategory(.record)
        let path = "\(fixture.directory)/memo.wav"
        let recorder = AudioRecorder(path: path, session: memo, endpoint: fixture.endpoint)
        try recorder.record()
        #expect(eventually { recorder.currentTime > 0.1 })
        fixture.system(.systemSession(.call, begin: true))
        #expect(eventually { !recorder.isRecording })
        let pausedAt = recorder.currentTime
        Thread.sleep(forTimeInterval: 0.2)
        #expect(recorder.currentTime == pausedAt)
        fixture.system(.systemSession(.call, begin: false))
        #expect(eventually { recorder.isRecording })
        #expect(eventually { recorder.currentTime > pausedAt + 0.05 })
        recorder.stop()
    }
}
