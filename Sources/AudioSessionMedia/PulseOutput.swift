import CPulse
import PulseClient

/// A playback stream on a sound server, tagged with the app's id (`audiosession.app`) so the
/// daemon's backend places it on the session's route and applies the session's gain.
/// Written to by the player's tick; all calls from one queue.
final class PulseOutput: @unchecked Sendable {
    private let connection: PulseContext
    private let stream: OpaquePointer
    let channels: Int

    /// - Parameters:
    ///   - bufferDuration: the target buffer (HW2: the session's IO buffer duration).
    init(server: String?, app: String, role: String, channels: Int, sampleRate: Int, bufferDuration: Double) throws(MediaError) {
        let connection: PulseContext
        do { connection = try PulseContext(server: server, name: app) } catch { throw MediaError(error.description) }
        self.connection = connection
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, "audiosession.app", app)
        pa_proplist_sets(properties, "media.role", role)
        guard let stream = connection.locked({ pa_stream_new_with_proplist(connection.context, "\(app) player", &spec, nil, properties) })
        else { throw MediaError("cannot create a playback stream: \(connection.lastError)") }
        self.stream = stream
        self.channels = channels
        let frameBytes = UInt32(channels * MemoryLayout<Float>.size)
        let target = UInt32(max(bufferDuration * 2, 0.05) * Double(sampleRate)) * frameBytes
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        // An explicit volume: the server's saved per-role volume (which may hold a duck) is not restored onto it.
        var volume = pa_cvolume()
        pa_cvolume_set(&volume, UInt32(channels), PA_VOLUME_NORM)
        do {
            try connection.locked { () throws(PulseContext.ConnectionError) in
                pa_stream_set_state_callback(stream, { _, userdata in
                    pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
                }, UnsafeMutableRawPointer(connection.mainloop))
                let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue)
                guard pa_stream_connect_playback(stream, nil, &attributes, flags, &volume, nil) >= 0 else {
                    throw .init(description: "cannot connect a playback stream: \(connection.lastError)")
                }
                try waitUntilReady()
            } as Void
        } catch {
            throw MediaError(error.description)
        }
    }

    private func waitUntilReady() throws(PulseContext.ConnectionError) {
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { return }
            guard state != PA_STREAM_FAILED, state != PA_STREAM_TERMINATED else {
                throw .init(description: "the playback stream failed: \(connection.lastError)")
            }
            connection.wait()
        }
    }

    deinit {
        connection.locked {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
    }

    /// How many frames the server takes now.
    var writableFrames: Int {
        connection.locked {
            let bytes = pa_stream_writable_size(stream)
            return bytes == Int.max || bytes < 0 ? 0 : bytes / (channels * MemoryLayout<Float>.size)
        }
    }

    func write(_ samples: ArraySlice<Float>) {
        connection.locked {
            _ = samples.withUnsafeBytes { bytes in
                pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE)
            }
        }
    }

    /// Pauses (true) or resumes the stream where it was.
    func cork(_ paused: Bool) {
        connection.locked {
            if let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
        }
    }

    /// Drops what is buffered (a stop).
    func flush() {
        connection.locked {
            if let operation = pa_stream_flush(stream, nil, nil) { pa_operation_unref(operation) }
        }
    }

    /// Seconds of audio written but not played yet.
    var bufferedSeconds: Double {
        connection.locked {
            var latency: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &latency, &negative) >= 0 else { return 0 }
            return negative != 0 ? 0 : Double(latency) / 1_000_000
        }
    }
}
