import CPulse

/// A record stream on a sound server, tagged with the app's id (`audiosession.app`) so the
/// daemon's backend moves it to the source of the session's input (untagged, on a named
/// source, it is a plain recording: the tests' level meter). Read by the recorder's tick; all
/// calls from one queue.
package final class PulseInput: @unchecked Sendable {
    private let client: PulseClientStream
    package let channels: Int

    /// - Parameters:
    ///   - sampleRate, channels: the session's (HW1, HW4).
    ///   - bufferDuration: the fragment size (HW2: the session's IO buffer duration).
    package init(
        server: String?, app: String?, channels: Int, sampleRate: Int, bufferDuration: Double, device: String? = nil,
        properties: [String: String] = [:]
    ) throws(MediaError) {
        self.channels = channels
        let fragment = UInt32(max(bufferDuration, 0.005) * Double(sampleRate)) * UInt32(channels * MemoryLayout<Float>.size)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: fragment)
        client = try PulseClientStream(
            server: server, client: app ?? "audiosession meter", name: "\(app ?? "meter") recorder",
            spec: pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels)),
            properties: (app.map { ["audiosession.app": $0] } ?? [:]).merging(properties) { _, extra in extra }
        ) { stream in
            pa_stream_connect_record(stream, device, &attributes, PA_STREAM_ADJUST_LATENCY)
        }
    }

    /// Everything recorded since the last read (a hole reads as silence).
    package func read() -> [Float] {
        var samples: [Float] = []
        read { samples.append(contentsOf: $0) }
        return samples
    }

    /// Everything recorded since the last read, handed to `body` fragment by fragment where the
    /// server keeps it (nothing is allocated: the engine's render thread reads so, EN9); a hole
    /// is handed over as silence.
    package func read(_ body: (UnsafeBufferPointer<Float>) -> Void) {
        let stream = client.stream
        client.connection.locked {
            while pa_stream_readable_size(stream) > 0 {
                var data: UnsafeRawPointer?
                var bytes = 0
                guard pa_stream_peek(stream, &data, &bytes) >= 0, bytes > 0 else { break }
                let count = bytes / MemoryLayout<Float>.size
                if let data {
                    body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: count))
                } else {
                    Self.silence.withUnsafeBufferPointer { zeros in
                        var left = count
                        while left > 0 {
                            let part = min(left, zeros.count)
                            body(UnsafeBufferPointer(rebasing: zeros[0..<part]))
                            left -= part
                        }
                    }
                }
                pa_stream_drop(stream)
            }
        }
    }

    private static let silence = [Float](repeating: 0, count: 4_096)

    /// Pauses (true) or resumes recording.
    package func cork(_ paused: Bool) { client.cork(paused) }
}
