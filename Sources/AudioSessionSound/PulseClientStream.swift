import CPulse
import PulseClient

/// A stream of the client library on its own libpulse connection: what `PulseOutput` and
/// `PulseInput` share — creating it with properties, connecting it, waiting until it is ready,
/// corking and disconnecting. Calls from one queue.
package final class PulseClientStream: @unchecked Sendable {
    package let connection: PulseContext
    package let stream: OpaquePointer

    /// - Parameters:
    ///   - properties: stream properties (`audiosession.app`, `media.role`).
    ///   - connect: connects the new stream (the main loop's lock held); < 0 is a failure.
    package init(
        server: String?, client: String, name: String, spec: pa_sample_spec, properties: [String: String],
        connect: (OpaquePointer) -> Int32
    ) throws(MediaError) {
        let connection: PulseContext
        do { connection = try PulseContext(server: server, name: client) } catch { throw MediaError(error.description) }
        self.connection = connection
        var spec = spec
        let list = pa_proplist_new()
        defer { pa_proplist_free(list) }
        for (key, value) in properties { pa_proplist_sets(list, key, value) }
        guard let stream = connection.locked({ pa_stream_new_with_proplist(connection.context, name, &spec, nil, list) }) else {
            throw MediaError("cannot create the stream \(name): \(connection.lastError)")
        }
        self.stream = stream
        let failure = connection.locked { () -> String? in
            pa_stream_set_state_callback(
                stream,
                { _, userdata in
                    pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
                }, UnsafeMutableRawPointer(connection.mainloop))
            guard connect(stream) >= 0 else { return "cannot connect the stream \(name): \(connection.lastError)" }
            while pa_stream_get_state(stream) != PA_STREAM_READY {
                let state = pa_stream_get_state(stream)
                guard state != PA_STREAM_FAILED, state != PA_STREAM_TERMINATED else {
                    return "the stream \(name) failed: \(connection.lastError)"
                }
                connection.wait()
            }
            return nil
        }
        if let failure { throw MediaError(failure) }
    }

    deinit {
        connection.locked {
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
    }

    /// Pauses (true) or resumes the stream where it was.
    package func cork(_ paused: Bool) {
        connection.locked {
            if let operation = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
        }
    }
}
