import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Logging
import PulseBackend
import PulseClient

// pulse-bench SERVER: side by side on one server, how fast a duck reaches a foreign stream.
//
// - ours: from an app's activation call (duckOthers) to the server acknowledging the foreign
//   stream's new volume;
// - PulseAudio's module-role-ducking: from the creation of a `media.role=phone` stream (the
//   benchmark's own libpulse stream, counted from pa_stream_connect_playback) to the server
//   acknowledging that stream. The module ducks inside the server's handling of the new
//   stream (its SINK_INPUT_PUT hook sets a volume factor no client can read, and hands it to
//   the I/O thread before returning), and the server announces the stream only after that, so
//   the announcement is the earliest moment anyone can know the duck is in place.
//
// Both are heard by the same separate libpulse connection (a subscription event, then the
// stream's info), and both ducks are checked by ear once: a tone played by paplay as
// `media.role=music` is measured on the default sink's monitor before and while ducked, and
// must drop by 20·log10(duck level) ± 1 dB. PipeWire has no role modules: there the module's
// side is reported as not available. SERVER is a PulseAudio or pipewire-pulse address
// (unix:/…/native) whose default sink plays to nobody (scripts/benchmark starts them headless).

if (3...4).contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--player" {
    // SO2: the client library's player beside paplay (PlayerBench.swift); how long each FLAC
    // plays (60 s unless said).
    let seconds = CommandLine.arguments.count == 4 ? Double(CommandLine.arguments[3]) ?? 60 : 60
    try PlayerBench.run(address: CommandLine.arguments[2], seconds: seconds)
    exit(0)
}
if (3...4).contains(CommandLine.arguments.count), CommandLine.arguments[1] == "--engine" {
    // EN9: the engine's render graph's cost, and a render loop's late cycles on the server (EngineBench.swift).
    let seconds = CommandLine.arguments.count == 4 ? Double(CommandLine.arguments[3]) ?? 60 : 60
    try EngineBench.run(address: CommandLine.arguments[2], seconds: seconds)
    // §20: play() → first sample and microphone → tap, beside paplay and parecord (EngineLatencyBench.swift).
    try EngineLatencyBench.run(address: CommandLine.arguments[2])
    exit(0)
}
guard CommandLine.arguments.count == 2 else {
    let usage =
        "usage: pulse-bench unix:/path/to/native | pulse-bench --player|--engine unix:/path/to/native [SECONDS]\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let address = CommandLine.arguments[1]
let rounds = 200
let duckLevel = 0.2
let expectedDrop = 20 * log10(duckLevel)
let normal: UInt32 = 0x10000  // PA_VOLUME_NORM

// The foreign player: a minute of 440 Hz at −6 dBFS, media.role=music.
let tone = NSTemporaryDirectory() + "pulse-bench-tone-\(getpid()).wav"
let step = 2 * Double.pi * 440 / 48_000
try SoundFile.write(
    SampleBuffer(samples: (0..<(60 * 48_000)).map { 0.5 * Float(sin(step * Double($0))) }, channels: 1, sampleRate: 48_000),
    to: tone, format: .wav16)
let player = Tool.start(["paplay", "--property=media.role=music", tone], server: address)
defer {
    kill(player, SIGKILL)
    unlink(tone)
}

let control = try PulseContext(server: address, name: "pulse-bench")
let serverName = control.serverName ?? "?"
let observer = try Observer(address: address, watching: "music")
let meter = try LevelMeter(server: address, source: "@DEFAULT_MONITOR@")
if serverName.hasPrefix("pulseaudio") {
    // An idle null sink renders 2 s ahead and does not rewind for a stream that joins it;
    // suspended and resumed, it restarts at the meter's latency. (PipeWire needs none of
    // this, and a record stream does not survive the suspension there.)
    Tool.run(["pactl", "suspend-sink", "@DEFAULT_SINK@", "1"], server: address)
    Tool.run(["pactl", "suspend-sink", "@DEFAULT_SINK@", "0"], server: address)
}
guard observer.waitFor({ $0.volume == normal }) != nil else { fail("the foreign player's stream did not appear") }
usleep(300_000)
let whole = meter.level(over: 0.5)
guard whole > -20 else { fail("the foreign player is not heard on the default sink's monitor (\(whole) dBFS)") }

/// Listens while ducked; fails unless the drop is the duck level's, ± 1 dB.
func heardDrop(_ side: String) -> Double {
    usleep(300_000)
    let drop = meter.level(over: 0.5) - whole
    guard abs(drop - expectedDrop) < 1 else {
        fail(String(format: "%@: the foreign player dropped %.2f dB, not %.2f dB", side, drop, expectedDrop))
    }
    return drop
}

// Ours.
let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
let arbiter = try Arbiter(configuration: .init(profile: .desktop, duckLevel: duckLevel), logger: quiet)
let backend = PulseBackend(arbiter: arbiter, server: address, logger: quiet)
let navigation = AudioSession(appID: "navigation", transport: .inProcess(arbiter))
try navigation.setCategory(.playback, options: .duckOthers)
var ours = Rounds(name: "ours (activation → duck acknowledged)")
var activation = Rounds(name: "setActive(true) alone")
var oursDrop = 0.0
for round in 0..<rounds {
    let start = now()
    try navigation.setActive(true)
    activation.samples.append(now() - start)
    guard let ducked = observer.waitFor({ ($0.volume ?? normal) < normal && $0.volumeTime > start }) else {
        fail("ours: no duck seen")
    }
    ours.samples.append(ducked.volumeTime - start)
    if round == 0 { oursDrop = heardDrop("ours") }
    try navigation.setActive(false)
    guard observer.waitFor({ $0.volume == normal }) != nil else { fail("ours: no unduck seen (round \(round))") }
}
navigation.close()
backend.close()

// module-role-ducking, ducking music to the same level while a phone stream exists.
var module = Rounds(name: "module-role-ducking (phone stream created → acknowledged)")
var moduleDrop = 0.0
let loaded = Tool.run(
    ["pactl", "load-module", "module-role-ducking", "trigger_roles=phone", "ducking_roles=music", "volume=\(expectedDrop)dB"],
    server: address)
if loaded {
    for round in 0..<rounds {
        let start = now()
        let call = PhoneStream(on: control)
        guard let seen = observer.waitFor({ !$0.phones.isEmpty }) else { fail("module: the phone stream was not announced") }
        module.samples.append(seen.phoneTime - start)
        if round == 0 { moduleDrop = heardDrop("module-role-ducking") }
        call.close()
        guard observer.waitFor({ $0.phones.isEmpty }) != nil else { fail("module: the phone stream did not go") }
    }
}
observer.close()
meter.stop()

print("server: \(serverName)")
print(ours.summary)
print(activation.summary)
print(String(format: "  heard: the foreign player %.2f dB (20·log10(%.1f) = %.2f dB)", oursDrop, duckLevel, expectedDrop))
if loaded {
    print(module.summary)
    print(String(format: "  heard: the foreign player %.2f dB", moduleDrop))
    print(
        String(
            format: "ours / module: p50 %.2f×, p90 %.2f×", ours.quantile(0.5) / module.quantile(0.5),
            ours.quantile(0.9) / module.quantile(0.9)))
} else {
    print("module-role-ducking: not available on this server (PipeWire has no role modules)")
}
