import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Logging
import PulseClient

/// `pulse-bench --player SERVER` (SO2, issue 46): the client library's player beside paplay on
/// one server.
/// - From `play()` (or paplay's start) to its first sample on the default sink's monitor, p50 and
///   p99 over 50 rounds each, interleaved.
/// - Memory and CPU of playing an hour-long stereo FLAC for 60 s beside a minute-long one: the
///   process's resident memory must grow no more for the hour than for the minute (+5 MiB), since
///   the file is decoded as it plays; CPU seconds per second of playback beside paplay's.
enum PlayerBench {
    static func run(address: String, seconds: Double) throws {
        let arbiter = try Arbiter(
            configuration: .init(profile: .desktop), logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let session = AudioSession(appID: "bench", capabilities: .backgroundAudio, transport: .inProcess(arbiter))
        try session.setCategory(.playback)
        let directory = NSTemporaryDirectory() + "pulse-bench-player-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // Latency: a second of 440 Hz at −6 dBFS, from its first sample.
        let tone = directory + "/tone.wav"
        try write(seconds: 1, channels: 1, rate: 48_000, to: tone, format: .wav16)
        let meter = try LevelMeter(server: address, source: "@DEFAULT_MONITOR@")
        if (try? PulseContext(server: address, name: "pulse-bench"))?.serverName?.hasPrefix("pulseaudio") == true {
            // An idle null sink renders ahead by 2 s and does not rewind: restarted at the meter's latency.
            Tool.run(["pactl", "suspend-sink", "@DEFAULT_SINK@", "1"], server: address)
            Tool.run(["pactl", "suspend-sink", "@DEFAULT_SINK@", "0"], server: address)
        }
        var ours = Rounds(name: "AudioPlayer.play() → first sample on the monitor")
        var theirs = Rounds(name: "paplay started → first sample on the monitor  ")
        for _ in 0..<50 {
            let player = try AudioPlayer(contentsOf: tone, session: session, endpoint: .soundServer(address))
            let start = DispatchTime.now().uptimeNanoseconds
            try player.play()
            guard let heard = meter.firstSound(above: -20, within: 3) else { fail("the player was not heard") }
            ours.samples.append(heard - start)
            player.stop()
            waitForSilence(meter)
            theirs.samples.append(paplayRound(tone, meter, address))
        }
        print(ours.summary + p99(ours))
        print(theirs.summary + p99(theirs))
        meter.stop()
        try session.setActive(false)

        // Memory: an hour-long and a minute-long stereo FLAC, each played for `seconds`.
        let flac = try hourAndMinute(.flac, "flac", seconds, directory, session, address)
        print(
            String(
                format: "playing %.0f s: resident memory +%.1f MiB for a minute-long FLAC, +%.1f MiB for an hour-long one"
                    + " (target: ≤ +5 MiB more)",
                seconds, flac.minute.growth / 1_048_576, flac.hour.growth / 1_048_576))
        let paplayCPU = cpuOfPaplay(flac.hourFile, seconds: seconds, address)
        print(
            String(
                format: "CPU per second of playback: %.2f ms ours (hour-long FLAC; %.2f ms the minute-long), %.2f ms paplay",
                flac.hour.cpu * 1_000, flac.minute.cpu * 1_000, paplayCPU * 1_000))

        // SO8: the same tone as AAC in .m4a (written here through FFmpeg's encoder), an hour and a
        // minute long: decoded as it plays, so the hour costs what the minute does.
        let aac = try hourAndMinute(
            .encoded(EncodedFormat(codec: .aac, container: "ipod", bitRate: 128_000)), "m4a", seconds, directory, session,
            address)
        print(
            String(
                format: "AAC .m4a, playing %.0f s: resident memory +%.1f MiB a minute-long, +%.1f MiB an hour-long; "
                    + "CPU per second %.2f ms (hour), %.2f ms (minute), beside paplay's %.2f ms for the FLAC",
                seconds, aac.minute.growth / 1_048_576, aac.hour.growth / 1_048_576, aac.hour.cpu * 1_000,
                aac.minute.cpu * 1_000, paplayCPU * 1_000))
        try recordAAC(seconds, directory, arbiter, address)
    }

    /// SO8: recording AAC (.m4a, 128 kb/s, 44.1 kHz stereo) from the server's default source for
    /// `seconds`: our CPU per second beside `ffmpeg -f pulse`'s encoding the same.
    static func recordAAC(_ seconds: Double, _ directory: String, _ arbiter: Arbiter, _ address: String) throws {
        arbiter.reload(Arbiter.Rules(trust: arbiter.rules.trust, permissionPolicy: .grant, policy: arbiter.rules.policy))
        let recording = AudioSession(appID: "bench-recorder", transport: .inProcess(arbiter))
        defer { recording.close() }
        try recording.setCategory(.record)
        let aac = SoundFile.Format.encoded(EncodedFormat(codec: .aac, container: "ipod", bitRate: 128_000))
        let recorder = AudioRecorder(
            path: directory + "/recorded.m4a", session: recording, endpoint: .soundServer(address),
            format: .init(file: aac, channels: 2, sampleRate: 44_100))
        let cpuBefore = cpuSeconds()
        try recorder.record()
        usleep(UInt32(seconds * 1_000_000))
        let ours = (cpuSeconds() - cpuBefore) / seconds
        recorder.stop()
        let ffmpeg = cpuOf(
            [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "pulse", "-i", "default", "-ac", "2", "-ar", "44100", "-c:a",
                "aac", "-b:a", "128k", "-y", directory + "/ffmpeg.m4a",
            ], seconds: seconds, address)
        print(
            String(
                format: "AAC .m4a recorded %.0f s: CPU per second %.2f ms ours, %.2f ms ffmpeg -f pulse", seconds, ours * 1_000,
                ffmpeg * 1_000))
    }

    /// One round of paplay beside ours: started → its first sample on the monitor (ns), then silence.
    static func paplayRound(_ tone: String, _ meter: LevelMeter, _ address: String) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        let paplay = Tool.start(["paplay", tone], server: address)
        guard let first = meter.firstSound(above: -20, within: 3) else { fail("paplay was not heard") }
        kill(paplay, SIGKILL)
        var status: Int32 = 0
        waitpid(paplay, &status, 0)
        waitForSilence(meter)
        return first - start
    }

    /// The p99 as Rounds' summary does not print it.
    static func p99(_ rounds: Rounds) -> String { String(format: "; p99 %.3f ms", rounds.quantile(0.99)) }

    /// Until the monitor has been silent for 100 ms (the last round's sound drained), 5 s at most.
    /// (A `where` clause would only skip iterations: the loop must stop at the first silence.)
    static func waitForSilence(_ meter: LevelMeter) {
        for _ in 0..<50 {
            if meter.level(over: 0.1) <= -60 { return }
        }
    }

    /// A 440 Hz sine at −6 dBFS written a second at a time (an hour never sits in memory).
    static func write(seconds: Int, channels: Int, rate: Int, to path: String, format: SoundFile.Format) throws {
        let writer = try SoundFileWriter(path: path, channels: channels, sampleRate: rate, format: format)
        let step = 2 * Double.pi * 440 / Double(rate)
        var second = [Float](repeating: 0, count: rate * channels)
        for index in 0..<rate {
            let value = 0.5 * Float(sin(step * Double(index)))
            for channel in 0..<channels { second[index * channels + channel] = value }
        }
        for _ in 0..<seconds { try writer.append(second) }  // 440 Hz: a whole number of periods per second
        writer.close()
    }

    /// A minute-long and an hour-long stereo tone in `format`, each played for `seconds`: the
    /// resident bytes each grew by and its CPU seconds per second, and the hour-long file.
    static func hourAndMinute(
        _ format: SoundFile.Format, _ suffix: String, _ seconds: Double, _ directory: String, _ session: AudioSession,
        _ address: String
    ) throws -> (minute: (growth: Double, cpu: Double), hour: (growth: Double, cpu: Double), hourFile: String) {
        let (minute, hour) = ("\(directory)/minute.\(suffix)", "\(directory)/hour.\(suffix)")
        try write(seconds: 60, channels: 2, rate: 44_100, to: minute, format: format)
        try write(seconds: 3_600, channels: 2, rate: 44_100, to: hour, format: format)
        let (minuteGrowth, minuteCPU) = try playFor(seconds, minute, session, address)
        let (hourGrowth, hourCPU) = try playFor(seconds, hour, session, address)
        return ((Double(minuteGrowth), minuteCPU), (Double(hourGrowth), hourCPU), hour)
    }

    /// Plays `path` for `seconds`: the resident memory it grew by and its CPU seconds per second.
    static func playFor(_ seconds: Double, _ path: String, _ session: AudioSession, _ address: String) throws -> (Int, Double) {
        let rssBefore = residentBytes()
        let cpuBefore = cpuSeconds()
        let player = try AudioPlayer(contentsOf: path, session: session, endpoint: .soundServer(address))
        player.isMetering = false  // as AVAudioPlayer's until isMeteringEnabled (paplay measures nothing)
        try player.play()
        usleep(UInt32(seconds * 1_000_000))
        let grown = residentBytes() - rssBefore
        let cpu = (cpuSeconds() - cpuBefore) / seconds
        player.stop()
        return (grown, cpu)
    }

    static func cpuOfPaplay(_ path: String, seconds: Double, _ address: String) -> Double {
        cpuOf(["paplay", path], seconds: seconds, address)
    }

    /// A tool run for `seconds`, then killed: its CPU seconds per second — every thread's time on
    /// a CPU in nanoseconds (`/proc/PID/task/*/schedstat`; `stat`'s clock ticks, 10 ms each, made
    /// paplay's 20 ms over 20 s read 0.5 or 1.5 ms per second by chance).
    static func cpuOf(_ arguments: [String], seconds: Double, _ address: String) -> Double {
        let tool = Tool.start(arguments, server: address)
        usleep(UInt32(seconds * 1_000_000))
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(tool)/task")) ?? []
        let nanoseconds = tasks.reduce(0.0) { sum, task in
            let schedstat = (try? String(contentsOfFile: "/proc/\(tool)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return sum + (schedstat.split(separator: " ").first.flatMap { Double($0) } ?? 0)
        }
        kill(tool, SIGKILL)
        var status: Int32 = 0
        waitpid(tool, &status, 0)
        return nanoseconds / 1e9 / seconds
    }

    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kib = line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } ?? 0
        return kib * 1_024
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
