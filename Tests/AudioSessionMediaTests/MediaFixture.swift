import AudioSession
import AudioSessionMedia
import AudioSessionRuntime
import Foundation
import Logging

/// An in-process arbiter, a render directory and helpers to make and measure sound files.
struct MediaFixture {
    let arbiter: Arbiter
    let directory: String

    init(profile: DeviceProfile = .iphone, permissions: PermissionPolicy = .grant) throws {
        arbiter = try Arbiter(
            configuration: .init(profile: profile, permissionPolicy: permissions),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        directory = NSTemporaryDirectory() + "media-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func session(_ app: String, capabilities: AppCapabilities = [.backgroundAudio]) -> AudioSession {
        AudioSession(appID: AppID(app), capabilities: capabilities, transport: .inProcess(arbiter))
    }

    var endpoint: AudioEndpoint { .files(directory: directory) }

    func system(_ event: SystemEvent) {
        if let error = arbiter.report(event) { fatalError("\(event): \(error)") }
    }

    /// A mono 440 Hz tone file.
    func tone(seconds: Double, amplitude: Float = 0.5, sampleRate: Int = 48_000, name: String = "tone.wav") throws -> String {
        let path = "\(directory)/\(name)"
        try SoundFile.write(Self.sine(seconds: seconds, amplitude: amplitude, sampleRate: sampleRate), to: path)
        return path
    }

    static func sine(seconds: Double, amplitude: Float, sampleRate: Int) -> SampleBuffer {
        let frames = Int(seconds * Double(sampleRate))
        let step = 2 * Double.pi * 440 / Double(sampleRate)
        return SampleBuffer(
            samples: (0..<frames).map { amplitude * Float(sin(step * Double($0))) }, channels: 1, sampleRate: sampleRate)
    }

    /// What a player rendered to a port.
    func rendered(_ app: String, port: String) throws -> SampleBuffer {
        try SoundFile.read("\(directory)/\(app).\(port).wav")
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// Levels of sample runs (dBFS as the library's `LevelMeter` measures it).
enum Level {
    static func dBFS(_ samples: ArraySlice<Float>) -> Double { LevelMeter.dBFS(samples) }

    static func peak(_ samples: ArraySlice<Float>) -> Float { samples.map(abs).max() ?? 0 }
}

/// Waits until `condition` holds (polled every 10 ms), at most `seconds`.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// Collects a player's events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [AudioPlayer.Event] = []

    func append(_ event: AudioPlayer.Event) { lock.withLock { events.append(event) } }
    var all: [AudioPlayer.Event] { lock.withLock { events } }
    func saw(_ event: AudioPlayer.Event, within seconds: Double = 5) -> Bool { eventually(seconds) { all.contains(event) } }
}
