// The radio station of RadioStation.swift as a program: it publishes its Now Playing information
// with the station's logo (playing with `--play`) and prints what happens, one line each; with
// `--background` it says it went to the background (AudioSession.setApplicationState).
// Against a daemon with AUDIOSESSION_SOCKET; on the session bus of DBUS_SESSION_BUS_ADDRESS.
import AVFoundation
import AudioSession
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)
let station = RadioStation()
station.onEvent = { print($0) }
if CommandLine.arguments.contains("--play") { station.play() } else { station.publish() }
if CommandLine.arguments.contains("--background") {
    do { try AVAudioSession.sharedInstance().session.setApplicationState(.background) } catch {
        print("cannot go to the background: \(error)")
    }
}
print("ready")
dispatchMain()
