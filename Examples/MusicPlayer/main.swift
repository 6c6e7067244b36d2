// A tiny music player: plays (pretend) music in the playback category and reacts to what the
// arbiter tells it. Run it against a daemon with AUDIOSESSION_SOCKET=PATH (README "Two apps").
import AudioSession
import Foundation

let session = AudioSession.shared
do {
    try session.setCategory(.playback)
    try session.setActive(true)
    try session.reportOutputRunning(true)
} catch {
    say("music: cannot start: \(error)")
    exit(1)
}
say("music: playing (app \(session.appID), \(session.transport))")

for await notification in session.notifications() {
    switch notification {
    case .interruptionBegan:
        say("music: interrupted, pausing")
    case .interruptionEnded(let shouldResume) where shouldResume:
        say("music: interruption ended, resuming")
        try? session.setActive(true)
        try? session.reportOutputRunning(true)
    case .interruptionEnded:
        say("music: interruption ended, staying paused")
    case .routeChange(let reason, _, let current) where reason == .oldDeviceUnavailable:
        say("music: \(reason), pausing; now \(current)")
        try? session.reportOutputRunning(false)
    case .mediaServicesReset:
        say("music: media services reset, starting again")
        try? session.setCategory(.playback)
        try? session.setActive(true)
        try? session.reportOutputRunning(true)
    default:
        say("music: \(notification)")
    }
    say("music: output gain \(session.outputGain)")
}

/// Writes a line at once (stdout through a pipe would be block-buffered).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
