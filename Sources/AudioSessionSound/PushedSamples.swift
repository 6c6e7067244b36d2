/// Where an app's samples are played — `AudioPlayer`'s, an audio queue's, an I/O unit's, a system
/// sound's: a stream of the app's own on the sound server (the daemon gives it the session's route
/// and gain) or the simulated device's files (the gain applied here, as the daemon would). One
/// playback path beneath them all (ARCHITECTURE: where an app's samples are made). All calls from
/// one queue.
package final class SampleOutput: @unchecked Sendable {
    private enum Kind {
        case server(PulseOutput)
        case files(RenderedOutput)
    }

    private let kind: Kind
    package let channels: Int

    /// - Parameters:
    ///   - minimumBuffer: the least a server's stream buffers (`PulseOutput`).
    ///   - echoCancelled: asks the server for echo cancellation (SO5's VoiceProcessingIO).
    ///   - systemSound: SO6: a system sound, left as it is by the daemon; on the simulated device
    ///     into `<app>.system-sound.<port>.wav`.
    ///   - requests: a server's stream fed as the server asks (`PulseOutput`); ignored by the files.
    package init(
        endpoint: AudioEndpoint, app: String, role: String, channels: Int, sampleRate: Int, bufferDuration: Double,
        minimumBuffer: Double = 0.15, echoCancelled: Bool = false, systemSound: Bool = false,
        requests: ServerRequests? = nil
    ) throws(MediaError) {
        self.channels = channels
        switch endpoint {
        case .soundServer(let server):
            kind = .server(
                try PulseOutput(
                    server: server, app: app, role: role, channels: channels, sampleRate: sampleRate,
                    bufferDuration: bufferDuration, minimumBuffer: minimumBuffer,
                    properties: echoCancelled ? PulseOutput.echoCancellation : [:],
                    systemSound: systemSound, requests: requests))
        case .files(let directory):
            kind = .files(
                RenderedOutput(
                    directory: directory, app: systemSound ? "\(app).system-sound" : app, channels: channels,
                    sampleRate: sampleRate))
        }
    }

    /// How many frames it takes now (the simulated device: what it played since the last call).
    package var writableFrames: Int {
        switch kind {
        case .server(let stream): stream.writableFrames
        case .files(let files): files.takeFrames()
        }
    }

    /// Plays `samples` (interleaved); on the simulated device onto `port` at `gain`.
    package func write(_ samples: [Float], gain: Float, port: String?) throws(MediaError) {
        guard !samples.isEmpty else { return }
        switch kind {
        case .server(let stream): stream.write(samples[...])
        case .files(let files):
            guard let port else { return }
            do { try files.write(gain == 1 ? samples : samples.map { $0 * gain }, port: port) } catch {
                throw MediaError(error.description)
            }
        }
    }

    /// A server's stream: `samples` over the last `frames` written (what of them is not heard
    /// yet is heard as the new ones), and the server's clock asked for with them unless told not
    /// to (PulseOutput; a write in pieces asks with its last).
    package func write(_ samples: [Float], replacingLast frames: Int, askingTime: Bool = true) {
        if case .server(let stream) = kind { stream.write(samples[...], replacingLast: frames, askingTime: askingTime) }
    }

    /// A server stream's frames heard since it began, its clock asked for again (PulseOutput); nil otherwise.
    package var heardFrames: Int? {
        if case .server(let stream) = kind { return stream.heardFrames }
        return nil
    }

    /// A server stream's frames heard since it began, from its last report (PulseOutput); nil otherwise.
    package var heardFramesAsReported: Int? {
        if case .server(let stream) = kind { return stream.heardFramesAsReported }
        return nil
    }

    /// A server's stream: its clock asked for (read by `heardFramesAsReported` from its answer on).
    package func askTime() {
        if case .server(let stream) = kind { stream.askTime() }
    }

    /// A server's stream: what its sink held at the server's last report, in frames (else 0).
    package var sinkLatencyFrames: Int {
        if case .server(let stream) = kind { return stream.sinkLatencyFrames }
        return 0
    }

    /// Paused (true) or playing; the simulated device's clock starts again on the next take.
    package func cork(_ paused: Bool) {
        switch kind {
        case .server(let stream): stream.cork(paused)
        case .files(let files): if paused { files.pause() }
        }
    }

    /// A server's stream fed as the server asks plays what is written, its buffer full or not
    /// (the end of the sound is written).
    package func trigger() {
        if case .server(let stream) = kind { stream.trigger() }
    }

    /// Drops what was written and not played yet.
    package func flush() {
        if case .server(let stream) = kind { stream.flush() }
    }

    /// Seconds written and not played yet (0 on the simulated device, which plays as it takes).
    package var bufferedSeconds: Double {
        if case .server(let stream) = kind { return stream.bufferedSeconds }
        return 0
    }

    /// Whether the files are written here (the session's gain is applied by the writer).
    package var isSimulated: Bool {
        if case .files = kind { return true }
        return false
    }

    package func close() {
        if case .files(let files) = kind { files.close() }
    }
}

/// What `AudioRecorder`, an input queue or an I/O unit's input bus records: a stream of the app's own from the sound server (the daemon moves it to the
/// session's input) or the simulated device's microphone. All calls from one queue.
package final class SampleInput: @unchecked Sendable {
    private enum Kind {
        case server(PulseInput)
        case simulated(SimulatedMicrophone)
    }

    private let kind: Kind

    package init(
        endpoint: AudioEndpoint, app: String, channels: Int, sampleRate: Int, bufferDuration: Double, echoCancelled: Bool = false
    ) throws(MediaError) {
        switch endpoint {
        case .soundServer(let server):
            kind = .server(
                try PulseInput(
                    server: server, app: app, channels: channels, sampleRate: sampleRate, bufferDuration: bufferDuration,
                    properties: echoCancelled ? PulseOutput.echoCancellation : [:]))
        case .files:
            kind = .simulated(SimulatedMicrophone(channels: channels, sampleRate: sampleRate))
        }
    }

    /// Everything recorded since the last read, interleaved (the simulated microphone at `gain`).
    package func read(gain: Float) -> [Float] {
        switch kind {
        case .server(let stream): stream.read()
        case .simulated(let microphone): microphone.take(gain: gain)
        }
    }

    /// As `read(gain:)`, handed to `body` in pieces: from the sound server without allocating
    /// (the engine's render thread, EN9); the simulated microphone's tone is made anew.
    package func read(gain: Float, into body: (UnsafeBufferPointer<Float>) -> Void) {
        switch kind {
        case .server(let stream): stream.read(body)
        case .simulated(let microphone): microphone.take(gain: gain).withUnsafeBufferPointer(body)
        }
    }

    package func cork(_ paused: Bool) {
        switch kind {
        case .server(let stream): stream.cork(paused)
        case .simulated(let microphone): if paused { microphone.pause() }
        }
    }

    package var isSimulated: Bool {
        if case .simulated = kind { return true }
        return false
    }
}
