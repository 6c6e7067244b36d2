import AudioSession
import AudioSessionServer
import Foundation
import Logging
import PulseBackend
import Synchronization

// pulse-bench SERVER: from an app's activation call (duckOthers) to the server acknowledging
// the duck of a foreign stream, seen by a separate libpulse connection as the stream's volume
// change; 200 rounds. SERVER is a PulseAudio or pipewire-pulse address (unix:/…/native).
// scripts/benchmark starts a headless PulseAudio and PipeWire and runs it against each.

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: pulse-bench unix:/path/to/native\n".utf8))
    exit(2)
}
let address = CommandLine.arguments[1]
let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }

@Sendable func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The foreign stream's volume as the observer connection last saw it, with the time.
let seen = Mutex<(volume: UInt32?, time: UInt64)>((nil, 0))
let observer = try PulseServer(server: address) { event in
    guard case .streamPresent(let stream) = event, stream.isForeign, let volume = stream.volume else { return }
    let time = now()
    seen.withLock { $0 = (volume, time) }
}

let arbiter = try Arbiter(configuration: .init(profile: .desktop), logger: quiet)
let backend = try PulseBackend(arbiter: arbiter, server: address, logger: quiet)

var player: pid_t = 0
let arguments = ["/usr/bin/pacat", "--playback", "--raw", "--property=media.role=music", "/dev/zero"]
let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
let environment = ["PULSE_SERVER=\(address)", "HOME=/tmp"]
let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
guard posix_spawn(&player, argv[0]!, nil, nil, argv, envp) == 0 else { fatalError("cannot start pacat") }
defer { kill(player, SIGKILL) }

func waitFor(_ condition: (UInt32) -> Bool) -> UInt64? {
    let deadline = now() + 5_000_000_000
    while now() < deadline {
        if let (volume, time) = seen.withLock({ state in state.volume.map { ($0, state.time) } }), condition(volume) { return time }
        usleep(20)
    }
    return nil
}

let normal: UInt32 = 0x10000
let appeared = now() + 5_000_000_000
while backend.foreignStreams.count != 1 || waitFor({ $0 == normal }) == nil {
    guard now() < appeared else { fatalError("the foreign stream did not appear") }
    usleep(1000)
}
let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
try navigation.setCategory(.playback, options: .duckOthers)

var samples: [UInt64] = []
for _ in 0..<200 {
    let start = now()
    try navigation.setActive(true)
    guard let acknowledged = waitFor({ $0 < normal && $0 > 0 }) else { fatalError("no duck seen") }
    samples.append(acknowledged - start)
    try navigation.setActive(false)
    guard waitFor({ $0 == normal }) != nil else {
        fatalError("no unduck seen: last \(seen.withLock { $0 }) backend \(backend.foreignStreams) round \(samples.count)")
    }
}
func ms(_ sorted: [UInt64], _ q: Double) -> String {
    String(format: "%.3f ms", Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1e6)
}
let sorted = samples.sorted()
print("activation (duckOthers) → foreign stream's duck acknowledged, 200 rounds: p50 \(ms(sorted, 0.5)), p90 \(ms(sorted, 0.9)), max \(ms(sorted, 1.0))")
backend.close()
observer.close()
