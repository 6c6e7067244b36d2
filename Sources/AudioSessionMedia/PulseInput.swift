import CPulse
import PulseClient

/// A record stream on a sound server, tagged with the app's id (`audiosession.app`) so the
/// daemon's backend moves it to the source of the session's input (untagged, on a named
/// source, it is a plain recording: the tests' level meter). Read by the recorder's tick; all
/// calls from one queue.
final class PulseInput: @unchecked Sendable {
    private let connection: PulseContext
    private let stream: OpaquePointer
    let channels: Int

    /// - Parameters:
    ///   - sampleRate, channels: the session's (HW1, HW4).
    ///   - bufferDuration: the fragment size (HW2: the session's IO buffer duration).
    init(
        server: String?, app: String?, channels: Int, sampleRate: Int, bufferDuration: Double, device: String? = nil
    ) throws(MediaError) {
        let connection: PulseContext
        do { connection = try PulseContext(server: server, name: app ?? "audiosession meter") } catch { throw MediaError(error.description) }
        self.connection = connection
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        if let app { pa_proplist_sets(properties, "audiosession.app", app) }
        guard let stream = connection.locked({ pa_stream_new_with_proplist(connection.context, "\(app ?? "meter") recorder", &spec, nil, properties) })
        else { throw MediaError("cannot create a record stream: \(connection.lastError)") }
        self.stream = stream
        self.channels = channels
        let fragment = UInt32(max(bufferDuration, 0.005) * Double(sampleRate)) * UInt32(channels * MemoryLayout<Float>.size)
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max, fragsize: fragment)
        do {
            try connection.locked { () throws(PulseContext.ConnectionError) in
                pa_stream_set_state_callback(stream, { _, userdata in
                    pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
                }, UnsafeMutableRawPointer(connection.mainloop))
                guard pa_stream_connect_record(stream, device, &attributes, PA_STREAM_ADJUST_LATENCY) >= 0 else {
                    throw .init(description: "cannot connect a record stream: \(connection.lastError)")
                }
                while pa_stream_get_state(stream) != PA_STREAM_READY {
                    let state = pa_stream_get_state(stream)
                    guard state != PA_STREAM_FAILED, state != PA_STREAM_TERMINATED else {
                        throw .init(description: "the record stream failed: \(connection.lastError)")
                    }
                    connection.wait()
                }
            } as Void
        } catch {
            throw MediaError(error.description)
        }
    }

    deinit {
        connection.locked {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
    }

    /// Everything recorded since the last read (a hole reads as silence).
    func read() -> [Float] {
        connection.locked {
            var samples: [Float] = []
            while pa_stream_readable_size(stream) > 0 {
                var data: UnsafeRawPointer?
                var bytes = 0
                guard pa_stream_peek(stream, &data, &bytes) >= 0, bytes > 0 else { break }
                let count = bytes / MemoryLayout<Float>.size
                if let data {
                    samples.append(contentsOf: UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: count))
                } else {
                    samples.append(contentsOf: repeatElement(0, count: count))
                }
                pa_stream_drop(stream)
            }
            return samples
        }
    }

    /// Pauses (true) or resumes recording.
    func cork(_ paused: Bool) {
        connection.locked {
            if let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
        }
    }
}
