// A tiny call-like app: a non-mixable playAndRecord session in voiceChat mode that interrupts
// other audio for a while, then ends with notify-others so they resume. With `--duck` it is a
// navigation prompt instead (mixable, ducks others). Usage: phone-call [--duck] [SECONDS]
import AudioSession
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let ducks = arguments.contains("--duck")
let seconds = arguments.compactMap(Double.init).first ?? 5

let session = AudioSession.shared
do {
    if ducks {
        try session.setCategory(.playback, mode: .voicePrompt, options: .duckOthers)
    } else {
        try session.setCategory(.playAndRecord, mode: .voiceChat)
    }
    try session.setActive(true)
    try session.reportOutputRunning(true)
} catch {
    say("call: cannot start: \(error)")
    exit(1)
}
say(ducks ? "call: active, ducking others" : "call: active, others interrupted")
Thread.sleep(forTimeInterval: seconds)
try? session.reportOutputRunning(false)
try? session.setActive(false, options: .notifyOthersOnDeactivation)
say("call: ended")

/// Writes a line at once (stdout through a pipe would be block-buffered).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
