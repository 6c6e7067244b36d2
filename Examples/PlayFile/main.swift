// play-file [FILE]: plays a sound file (WAV, FLAC, Ogg) through the app's session with
// AudioPlayer and prints what happens to it: paused by a call and resumed after it, ducked,
// paused when the headphones go. Without FILE it plays a 5-second 440 Hz tone.
//
// Where the sound goes is AudioEndpoint.automatic: AUDIOSESSION_RENDER_DIR (the simulated
// device, rendered to files there) or the sound server (PULSE_SERVER, else the user's). Run it
// against a daemon with AUDIOSESSION_SOCKET=PATH; scripts/demo-pulse runs it on a headless
// PulseAudio under `audiosessiond --backend pulse`.
import AudioSession
import AudioSessionMedia
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let file: String
if let given = arguments.first {
    file = given
} else {
    file = NSTemporaryDirectory() + "play-file-tone-\(getpid()).wav"
    let step = 2 * Double.pi * 440 / 48_000
    let tone = SampleBuffer(samples: (0..<240_000).map { 0.5 * Float(sin(step * Double($0))) }, channels: 1, sampleRate: 48_000)
    do { try SoundFile.write(tone, to: file) } catch {
        say("play-file: \(error)")
        exit(1)
    }
}

let session = AudioSession.shared
let finished = DispatchSemaphore(value: 0)
do {
    try session.setCategory(.playback)
    let player = try AudioPlayer(contentsOf: file, session: session)
    player.eventHandler = { event in
        say("play-file: \(event) at \(String(format: "%.2f", player.currentTime)) s, gain \(session.outputGain)")
        if event == .finished { finished.signal() }
    }
    session.addNotificationHandler { notification in say("play-file: told \(notification)") }
    try player.play()
    say("play-file: playing \(file) (\(String(format: "%.1f", player.duration)) s) as \(session.appID) to \(player.endpoint)")
    finished.wait()
    try? session.setActive(false, options: .notifyOthersOnDeactivation)
} catch {
    say("play-file: \(error)")
    exit(1)
}

/// Writes a line at once (stdout through a pipe would be block-buffered).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
