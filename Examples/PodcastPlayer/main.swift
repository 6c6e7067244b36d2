// The podcast player of EpisodePlayer.swift as a program: it publishes its Now Playing
// information (playing with `--play`) and prints each remote command it handles, one per line.
// Against a daemon with AUDIOSESSION_SOCKET; on the session bus of DBUS_SESSION_BUS_ADDRESS.
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)
let player = EpisodePlayer()
player.onCommand = { print($0) }
if CommandLine.arguments.contains("--play") { player.play() } else { player.publish() }
print("ready")
dispatchMain()
