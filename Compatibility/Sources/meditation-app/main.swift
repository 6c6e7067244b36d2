// N4 as a meditation app meets it: its main thread runs the main run loop (as UIApplicationMain
// does), its interruption handler must run on that thread, and the progress Timer it schedules
// there must fire after a call. Embedded by default; against a daemon with AUDIOSESSION_SOCKET.
// Exit status 0 when every check passed.
import AVFoundation
import AudioSession
import Foundation

var failures = 0
func check(_ condition: Bool, _ what: String) {
    print((condition ? "ok " : "not ok ") + what)
    if !condition { failures += 1 }
}

let system = try SystemController(transport: .fromEnvironment)
let session = AVAudioSession.sharedInstance()
try session.setCategory(.playback)
try session.setActive(true)
let meditation = MeditationTimer()
// A call comes and goes while the main thread runs its run loop.
DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
    try? system.perform(.systemSession(.call, begin: true))
    try? system.perform(.systemSession(.call, begin: false))
}
let deadline = Date().addingTimeInterval(5)
while meditation.ticks < 3, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.05)) }
check(meditation.handlerOnMainThread.count == 2, "N4: both interruption notifications heard")
check(meditation.handlerOnMainThread == [true, true], "N4: on the main thread: \(meditation.handlerOnMainThread)")
check(meditation.ticks >= 3, "N4: the Timer scheduled in the handler fires (\(meditation.ticks) ticks)")
print(failures == 0 ? "all meditation checks passed" : "\(failures) meditation checks failed")
exit(failures == 0 ? 0 : 1)
