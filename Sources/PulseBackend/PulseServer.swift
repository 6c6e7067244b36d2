import CPulse
import PulseClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a PulseAudio server (or PipeWire's pipewire-pulse) on libpulse's threaded
/// main loop: it lists the sinks and sources and reports each one that appears, changes or
/// goes away. The handler runs on the main loop's thread, one event at a time.
public final class PulseServer: @unchecked Sendable {
    /// What happened to a sink or source.
    public enum Event: Sendable {
        /// Listed at connection, new, or changed (its active port, availability, properties).
        case present(PulseDevice)
        case removed(index: UInt32, isSink: Bool)
        /// A playback stream (sink input) or record stream (source output): listed, new or changed.
        case streamPresent(PulseStream)
        case streamRemoved(index: UInt32, isRecord: Bool)
        /// The server's default sink (listed, or changed).
        case defaultSink(String)
        /// MS3: the connection ended (the server stopped, crashed or restarted), with libpulse's
        /// reason. Nothing more is reported; the object may be dropped.
        case lost(String)
    }

    public typealias ConnectionError = PulseContext.ConnectionError

    let connection: PulseContext
    var mainloop: OpaquePointer { connection.mainloop }
    var context: OpaquePointer { connection.context }
    let handler: @Sendable (Event) -> Void
    /// The initial listings not finished yet (main loop's lock held).
    var pendingListings = 6
    /// Each client's process properties (main loop's thread): a native PipeWire stream seen
    /// through pipewire-pulse (mpv's default output, pw-play) names its process only on its
    /// client, not on the stream as libpulse's clients do.
    var clientProcesses: [UInt32: [String: String]] = [:]
    /// The stream volumes written so far (main loop's lock held): a stream's report carries the
    /// count when the server was asked for it (`PulseStream.writesSeen`), so a report asked before
    /// a write is known to be older than it (D1: never taken for the user's volume).
    var volumeWrites: UInt64 = 0

    /// The sink input requests on their way (main loop's lock held), each with its operation:
    /// each holds the connection until its answer ends (`answered`). libpulse drops a request
    /// without a word when the server goes away, so `close()` lets go of those left; before, the
    /// connection — its loop thread and descriptors — stayed for good once a server died with a
    /// request on its way (MS3: a daemon whose server came and went kept one each time).
    var owed: [ObjectIdentifier: (operation: OpaquePointer, asked: Unmanaged<Asked>)] = [:]

    /// What a sink input's info request carries to its answer: the server, and the writes sent before.
    final class Asked {
        let server: PulseServer
        let writes: UInt64
        let isListing: Bool
        init(_ server: PulseServer, listing: Bool = false) {
            self.server = server
            writes = server.volumeWrites
            isListing = listing
        }
    }

    /// Sends a sink input request that carries `asked` to its answer (main loop's lock held).
    func send(_ asked: Asked, _ request: (UnsafeMutableRawPointer) -> OpaquePointer?) {
        let held = Unmanaged.passRetained(asked)
        // None when the context has failed (the server went away before our request): no answer comes.
        guard let operation = request(held.toOpaque()) else { return held.release() }
        owed[ObjectIdentifier(asked)] = (operation, held)
    }

    /// A request's answer has ended (on the loop's thread): it no longer holds the connection.
    func answered(_ held: Unmanaged<Asked>) {
        if let entry = owed.removeValue(forKey: ObjectIdentifier(held.takeUnretainedValue())) {
            pa_operation_unref(entry.operation)
        }
        held.release()
    }

    /// Connects (bounded by libpulse's own timeout) and starts reporting: every existing sink,
    /// source and stream as `present` before it returns, then changes as they happen.
    /// - Parameter server: a server string such as `unix:/run/…/native`; nil for the default
    ///   (`PULSE_SERVER`, then the user's server).
    public init(server: String?, handler: @escaping @Sendable (Event) -> Void) throws(ConnectionError) {
        connection = try PulseContext(server: server, name: "audiosessiond") { reason in handler(.lost(reason)) }
        self.handler = handler
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        pa_context_set_subscribe_callback(
            context,
            { context, event, index, userdata in
                Unmanaged<PulseServer>.fromOpaque(userdata!).takeUnretainedValue().changed(context!, event, index)
            }, me)
        let mask =
            PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
            | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            | PA_SUBSCRIPTION_MASK_CLIENT.rawValue
        Self.release(pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil))
        // The clients first: the server answers in order, so the streams' listings find them.
        Self.release(pa_context_get_client_info_list(context, Self.clientListing, me))
        Self.release(pa_context_get_sink_info_list(context, Self.sinkListing, me))
        Self.release(pa_context_get_source_info_list(context, Self.sourceListing, me))
        send(Asked(self, listing: true)) { pa_context_get_sink_input_info_list(context, Self.streamInfo, $0) }
        Self.release(pa_context_get_source_output_info_list(context, Self.recordStreamListing, me))
        Self.release(pa_context_get_server_info(context, Self.serverListing, me))
        while pendingListings > 0, pa_context_get_state(context) == PA_CONTEXT_READY { pa_threaded_mainloop_wait(mainloop) }
    }

    /// The server's name and version (`pulseaudio 16.1`, `PulseAudio (on PipeWire 0.3.65) 15.0.0`);
    /// asks the server, so once per connection.
    public var name: String? { connection.serverName }

    /// Stops reporting and closes the connection (also done when the object goes away): the
    /// requests still on their way are called off and let go of the connection (`owed`).
    public func close() {
        pa_threaded_mainloop_lock(mainloop)
        pa_context_set_subscribe_callback(context, nil, nil)
        let left = owed
        owed = [:]
        for entry in left.values {
            pa_operation_cancel(entry.operation)  // its callback does not run after this
            pa_operation_unref(entry.operation)
            entry.asked.release()  // not the last reference: the caller holds one
        }
        pa_threaded_mainloop_unlock(mainloop)
    }

    /// Reports every playback and record stream again (`streamPresent`), as at the start: the
    /// backend judges each one anew when players come or go (§16).
    public func listStreamsAgain() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        send(Asked(self)) { pa_context_get_sink_input_info_list(context, Self.streamInfo, $0) }
        Self.release(pa_context_get_source_output_info_list(context, Self.recordStreamInfo, me))
    }

    /// Waits until the server has handled every request sent before this call, or `timeout`
    /// seconds: one round trip (the server answers in order). Not from a libpulse callback.
    /// - Returns: whether the server answered in time.
    @discardableResult
    public func flush(timeout: Double = 1) -> Bool {
        final class Answered: @unchecked Sendable {
            var done = false  // read and written with the main loop's lock held
        }
        let answered = Answered()
        pa_threaded_mainloop_lock(mainloop)
        let operation = pa_context_get_server_info(
            context,
            { _, _, userdata in Unmanaged<Answered>.fromOpaque(userdata!).takeUnretainedValue().done = true },
            Unmanaged.passUnretained(answered).toOpaque())
        pa_threaded_mainloop_unlock(mainloop)
        guard let operation else { return false }
        waitUntil(timeout: timeout) { answered.done }
        pa_threaded_mainloop_lock(mainloop)
        let done = answered.done
        if !done { pa_operation_cancel(operation) }  // its callback will not run after this
        pa_operation_unref(operation)
        pa_threaded_mainloop_unlock(mainloop)
        return done
    }

    /// Asks for a playback stream's state again; the answer is reported as `streamPresent`.
    public func askAgain(stream index: UInt32) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        ask(stream: index, isRecord: false)
    }

    /// Asks for a stream's state, reported as `streamPresent` (a playback stream's with the
    /// writes sent before it was asked). With the main loop's lock held, or on its thread.
    func ask(stream index: UInt32, isRecord: Bool) {
        if isRecord {
            let me = Unmanaged.passUnretained(self).toOpaque()
            Self.release(pa_context_get_source_output_info(context, index, Self.recordStreamInfo, me))
        } else {
            send(Asked(self)) { pa_context_get_sink_input_info(context, index, Self.streamInfo, $0) }
        }
    }

    /// Asks for the server's defaults again; the answer is reported as `defaultSink`.
    public func askDefaults() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        Self.release(pa_context_get_server_info(context, Self.serverInfo, Unmanaged.passUnretained(self).toOpaque()))
    }

    /// Lets go of a request's operation; none (nil) when the context failed — the server went
    /// away between our last event and the request, and libpulse asserts on unref'ing nil.
    static func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }

    /// Mutes or unmutes a stream (the main loop's lock is taken; not from a libpulse callback).
    public func setMute(stream index: UInt32, _ muted: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        Self.release(pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, nil, nil))
    }

    /// Sets every channel of a stream to a volume (`PA_VOLUME_NORM` is 100%); returns the
    /// write's number (a report of the stream with `writesSeen` at least this reflects it).
    @discardableResult
    public func setVolume(stream index: UInt32, channels: UInt8, volume: UInt32) -> UInt64 {
        var levels = pa_cvolume()
        pa_cvolume_set(&levels, UInt32(max(channels, 1)), volume)
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        volumeWrites += 1
        Self.release(pa_context_set_sink_input_volume(context, index, &levels, nil, nil))
        return volumeWrites
    }

    /// Sets a sink or source, by name, to a slider position (1 = 100%) for its loudest channel,
    /// keeping the user's balance: the channels as last seen (`balance`) are scaled together; with
    /// none known, every channel gets the one value.
    public func setVolume(device name: String, isSink: Bool, volume: Double, balance: [UInt32] = []) {
        let target = pa_volume_t((volume * Double(PA_VOLUME_NORM)).rounded())
        var levels = pa_cvolume()
        if balance.isEmpty || balance.allSatisfy({ $0 == 0 }) {
            pa_cvolume_set(&levels, 1, target)  // one value: every channel
        } else {
            levels.channels = UInt8(min(balance.count, Int(PA_CHANNELS_MAX)))
            withUnsafeMutableBytes(of: &levels.values) { raw in
                for (index, value) in balance.prefix(Int(levels.channels)).enumerated() {
                    raw.storeBytes(of: value, toByteOffset: index * 4, as: UInt32.self)
                }
            }
            pa_cvolume_scale(&levels, target)
        }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let operation =
            isSink
            ? pa_context_set_sink_volume_by_name(context, name, &levels, nil, nil)
            : pa_context_set_source_volume_by_name(context, name, &levels, nil, nil)
        Self.release(operation)
    }

    /// Moves a playback stream to a sink, or a record stream to a source, by name, and asks for
    /// the stream again: the server answers in order, so where the move left it is reported even
    /// when the move changed nothing (no event then) — a move of ours is seen, never left pending
    /// to be mistaken later for the user's (RT13).
    public func move(stream index: UInt32, isRecord: Bool, to device: String) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let operation =
            isRecord
            ? pa_context_move_source_output_by_name(context, index, device, nil, nil)
            : pa_context_move_sink_input_by_name(context, index, device, nil, nil)
        Self.release(operation)
        ask(stream: index, isRecord: isRecord)
    }

    /// On the main loop's thread: a sink or source appeared, changed or went away.
    func changed(_ context: OpaquePointer, _ event: pa_subscription_event_type_t, _ index: UInt32) {
        let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        if facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue {
            Self.release(pa_context_get_server_info(context, Self.serverInfo, Unmanaged.passUnretained(self).toOpaque()))
            return
        }
        if facility == PA_SUBSCRIPTION_EVENT_CLIENT.rawValue {
            // A client comes before its streams: its answer comes before theirs.
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { return _ = clientProcesses.removeValue(forKey: index) }
            Self.release(
                pa_context_get_client_info(context, index, Self.clientInfo, Unmanaged.passUnretained(self).toOpaque()))
            return
        }
        if facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue {
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { return handler(.streamRemoved(index: index, isRecord: false)) }
            return ask(stream: index, isRecord: false)
        }
        if facility == PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue {
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { return handler(.streamRemoved(index: index, isRecord: true)) }
            return ask(stream: index, isRecord: true)
        }
        let isSink = facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue
        guard isSink || facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue else { return }
        if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue { return handler(.removed(index: index, isSink: isSink)) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if isSink {
            Self.release(pa_context_get_sink_info_by_index(context, index, Self.sinkInfo, me))
        } else {
            Self.release(pa_context_get_source_info_by_index(context, index, Self.sourceInfo, me))
        }
    }
}
