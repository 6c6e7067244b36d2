/// The simulated device's outputs: what a player plays goes to
/// `<directory>/<app>.<output port UID>.wav`, one file per port, at real-time pace.
package final class RenderedOutput: @unchecked Sendable {
    package let directory: String
    package let app: String
    package let channels: Int
    package let sampleRate: Int
    private var clock: FrameClock
    private var writers: [String: SoundFileWriter] = [:]

    package init(directory: String, app: String, channels: Int, sampleRate: Int) {
        self.directory = directory
        self.app = app
        self.channels = channels
        self.sampleRate = sampleRate
        self.clock = FrameClock(sampleRate: sampleRate)
    }

    /// The file a port's output goes to.
    package static func path(directory: String, app: String, port: String) -> String { "\(directory)/\(app).\(port).wav" }

    /// The frames the device has played since the last call.
    package func takeFrames() -> Int { clock.take() }

    /// Appends to the port's file (created on first use).
    package func write(_ samples: [Float], port: String) throws(SoundFileError) {
        if writers[port] == nil {
            writers[port] = try SoundFileWriter(
                path: Self.path(directory: directory, app: app, port: port), channels: channels, sampleRate: sampleRate)
        }
        try writers[port]?.append(samples)
    }

    /// Paused: the clock starts again on the next take.
    package func pause() { clock.reset() }

    package func close() {
        for writer in writers.values { writer.close() }
        writers.removeAll()
    }
}
