import CPulse
import Dispatch

/// A playback stream on a sound server, tagged with the app's id (`audiosession.app`) so the
/// daemon's backend places it on the session's route and applies the session's gain.
/// Written to by the player's tick; all calls from one queue.
package final class PulseOutput: @unchecked Sendable {
    private let client: PulseClientStream
    private var stream: OpaquePointer { client.stream }
    package let channels: Int
    private let sampleRate: Int
    /// Since the stream ran dry (`bufferedSeconds`): when it was first seen so, and what the sink held.
    private var dry: (at: UInt64, held: Double)?
    /// What the server's requests call (`requests`), kept until the callback is taken off.
    private let handler: Unmanaged<RequestHandler>?

    /// What asks the server for echo cancellation on a stream (PulseAudio's module-filter-heuristics
    /// makes it a request, module-filter-apply loads module-echo-cancel for it; a server without
    /// them ignores it). Both the playback and the capture stream carry it and the phone role: the
    /// server pairs the two by their stream group, which is the media role when one is set (a
    /// capture stream without it was grouped by its application and never paired: no canceller).
    package static let echoCancellation = ["filter.want": "echo-cancel", "media.role": "phone"]

    /// - Parameters:
    ///   - bufferDuration: the session's IO buffer duration (HW2); the buffer is twice it, at least
    ///     `minimumBuffer`. A pause, a seek, a duck or a mute is not delayed by it (the stream is
    ///     corked, flushed or set on the server at once).
    ///   - minimumBuffer: 150 ms for a stream fed by a 10 ms timer on a shared machine (a shorter one
    ///     ran dry under load: gaps heard in a recording of it while two builds ran); less for
    ///     AVAudioEngine's render thread on its absolute clock (EN9), whose sound starts that much
    ///     later after `play()`. (`AudioPlayer` asks for its own: `requests`.)
    ///   - properties: more for the stream's proplist (`echoCancellation`).
    ///   - systemSound: SO6: the app's system sound, tagged `audiosession.system-sound` (not
    ///     `audiosession.app`): the daemon leaves it as it is, never ducked nor muted.
    ///   - requests: fed as the server asks (a player), not on a clock of the writer's own: the
    ///     buffer and request sizes are these, and the server's latency is left to the sink.
    package init(
        server: String?, app: String, role: String, channels: Int, sampleRate: Int, bufferDuration: Double,
        minimumBuffer: Double = 0.15, properties: [String: String] = [:],
        systemSound: Bool = false, requests: ServerRequests? = nil
    ) throws(MediaError) {
        self.channels = channels
        self.sampleRate = sampleRate
        let frameBytes = UInt32(channels * MemoryLayout<Float>.size)
        let target = UInt32((requests?.buffer ?? max(bufferDuration * 2, minimumBuffer)) * Double(sampleRate)) * frameBytes
        // The server asks for more every 5 ms (its default, a quarter of the buffer, handed room out in
        // bursts: a queue's callbacks came three at once, then none for 30 ms), and starts playing
        // once 10 ms are there (its default, the whole buffer, held a queue's first sound for a second).
        // (A player fed as the server asks, `requests`, has its own sizes.)
        let request = UInt32(0.005 * Double(sampleRate)) * frameBytes
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: target, prebuf: requests == nil ? 2 * request : target,
            minreq: requests.map { UInt32($0.request * Double(sampleRate)) * frameBytes } ?? request, fragsize: UInt32.max)
        // Fed as the server asks: it starts once its buffer is full (a sink running far ahead took
        // a first short piece at once, ran dry, and the server rewound it and rendered it again and
        // again: a minute played in a second), or when told the end is written (`trigger`). Its
        // latency is the sink's own (as paplay's), which then wakes this client about once a
        // second, not every 95 ms (PA_STREAM_ADJUST_LATENCY set the sink to half the buffer).
        let flags =
            requests == nil
            ? PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue : PA_STREAM_INTERPOLATE_TIMING.rawValue
        let handler = requests.map { Unmanaged.passRetained(RequestHandler($0.onRequest)) }
        self.handler = handler
        // An explicit volume: the server's saved per-role volume (which may hold a duck) is not restored onto it.
        var volume = pa_cvolume()
        pa_cvolume_set(&volume, UInt32(channels), PA_VOLUME_NORM)
        do {
            client = try PulseClientStream(
                server: server, client: app, name: systemSound ? "\(app) system sound" : "\(app) player",
                spec: pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels)),
                properties: (systemSound
                    ? ["audiosession.system-sound": app, "media.role": "event"] : ["audiosession.app": app, "media.role": role])
                    .merging(properties) { _, extra in extra }
            ) { stream in
                if let handler {
                    pa_stream_set_write_callback(
                        stream,
                        { _, _, userdata in Unmanaged<RequestHandler>.fromOpaque(userdata!).takeUnretainedValue().call() },
                        handler.toOpaque())
                }
                return pa_stream_connect_playback(stream, nil, &attributes, pa_stream_flags_t(rawValue: flags), &volume, nil)
            }
        } catch {
            handler?.release()  // no stream: nothing will call it
            throw error
        }
        askTime()  // the first report, there by the first tick's `bufferedSeconds`
    }

    deinit {
        guard let handler else { return }
        client.connection.locked { pa_stream_set_write_callback(stream, nil, nil) }
        handler.release()
    }

    /// How many frames the server takes now.
    package var writableFrames: Int {
        client.connection.locked {
            let bytes = pa_stream_writable_size(stream)
            return bytes == Int.max || bytes < 0 ? 0 : bytes / (channels * MemoryLayout<Float>.size)
        }
    }

    /// Appends `samples`; or writes them over the last `replacingLast` frames written (those not
    /// played yet are heard as the new ones). With `askingTime`, the stream's clock is asked for in
    /// the same breath (`askTime`): libpulse's thread woken once for both, not twice.
    package func write(_ samples: ArraySlice<Float>, replacingLast frames: Int = 0, askingTime: Bool = false) {
        let offset = -Int64(frames * channels * MemoryLayout<Float>.size)
        client.connection.locked {
            _ = samples.withUnsafeBytes { bytes in
                pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, offset, PA_SEEK_RELATIVE)
            }
            if askingTime { askTimeLocked() }
        }
    }

    /// Asks for the server's clock of the stream; read from its answer on (`heardFramesAsReported`).
    package func askTime() { client.connection.locked { askTimeLocked() } }

    private func askTimeLocked() {
        if let operation = pa_stream_update_timing_info(stream, nil, nil) { pa_operation_unref(operation) }
    }

    /// Pauses (true) or resumes the stream where it was.
    package func cork(_ paused: Bool) { client.cork(paused) }

    /// Starts playing what is written though the buffer is not full (the end of a sound shorter
    /// than a stream's `requests` buffer).
    package func trigger() {
        client.connection.locked {
            if let operation = pa_stream_trigger(stream, nil, nil) { pa_operation_unref(operation) }
        }
    }

    /// Drops what was written and not played yet (a seek: the new position is heard next).
    package func flush() {
        client.connection.locked {
            if let operation = pa_stream_flush(stream, nil, nil) { pa_operation_unref(operation) }
        }
    }

    /// Frames heard since the stream began (the server's clock of it, interpolated by libpulse;
    /// nil before the server's first word): it stands while corked. (Around a cork libpulse goes on
    /// counting until the server's next report, then stands until the sound catches up: read
    /// during a pause, or just after one, it may be up to a tick ahead.)
    package var heardFrames: Int? {
        client.connection.locked {
            // The server's word is asked for each time and read the next (a tick later); between
            // them the clock is interpolated (libpulse's automatic updates woke its thread more).
            askTimeLocked()
            return heardLocked()
        }
    }

    /// As `heardFrames`, from the server's last report, without asking again (a player's tick
    /// asks with its write: `write(_:replacingLast:askingTime:)`).
    package var heardFramesAsReported: Int? { client.connection.locked { heardLocked() } }

    private func heardLocked() -> Int? {
        var microseconds: pa_usec_t = 0
        guard pa_stream_get_time(stream, &microseconds) >= 0 else { return nil }
        return Int(microseconds * UInt64(sampleRate) / 1_000_000)
    }

    /// What the sink held at the server's last timing report, in frames (0 before it): heard
    /// after the server has taken it.
    package var sinkLatencyFrames: Int {
        client.connection.locked {
            guard let info = pa_stream_get_timing_info(stream)?.pointee else { return 0 }
            return Int(Double(info.sink_usec) / 1e6 * Double(sampleRate))
        }
    }

    /// Seconds of audio written but not played yet: what the server and its sink hold, from the
    /// server's last report (asked for again each time, and once when the stream is made; libpulse
    /// counts what was written since). No report was ever asked for before, so it read 0: a system
    /// sound's stream was let go as soon as its last frame was written, and the last 70–80 ms the
    /// server held were never heard; a queue's stop and its underruns came as early.
    ///
    /// Run dry (the server's queue empty, the stream no longer playing), what is left is what the
    /// sink held when that was first reported, less the time since: PulseAudio goes on reporting
    /// its sink's whole latency for a stream with nothing left, so the latency never fell to 0 and
    /// a stopping queue or a system sound would have waited for good.
    package var bufferedSeconds: Double {
        client.connection.locked {
            askTimeLocked()
            if let info = pa_stream_get_timing_info(stream)?.pointee, info.playing == 0,
                info.write_index <= info.read_index, pa_stream_is_corked(stream) != 1
            {
                let now = DispatchTime.now().uptimeNanoseconds
                let since = dry ?? (now, Double(info.sink_usec) / 1_000_000)
                dry = since
                return max(0, since.held - Double(now - since.at) / 1e9)
            }
            dry = nil
            var latency: pa_usec_t = 0
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &latency, &negative) >= 0 else { return 0 }
            return negative != 0 ? 0 : Double(latency) / 1_000_000
        }
    }
}

/// A stream fed as the server asks (`PulseOutput`'s `requests`): it keeps `buffer` seconds and
/// asks once `request` seconds are free, calling `onRequest` on the client library's thread (its
/// lock held: it must only wake the writer).
package struct ServerRequests: Sendable {
    package var buffer: Double
    package var request: Double
    package var onRequest: @Sendable () -> Void

    package init(buffer: Double, request: Double, onRequest: @escaping @Sendable () -> Void) {
        (self.buffer, self.request, self.onRequest) = (buffer, request, onRequest)
    }
}

private final class RequestHandler: Sendable {
    let call: @Sendable () -> Void
    init(_ call: @escaping @Sendable () -> Void) { self.call = call }
}
