import CPulse

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a PulseAudio server (or PipeWire's pipewire-pulse) on libpulse's threaded
/// main loop: what the daemon's backend and the client library's streams both stand on.
/// libpulse calls are made with the main loop's lock held (`locked`), never from its callbacks.
public final class PulseContext: @unchecked Sendable {
    public struct ConnectionError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let mainloop: OpaquePointer
    public let context: OpaquePointer
    /// What the state callback needs: the main loop to signal, and whom to tell of a loss.
    private let watch: StateWatch

    /// The context's state changes, seen on the main loop's thread (its lock held).
    private final class StateWatch {
        let mainloop: OpaquePointer
        let lost: (@Sendable (String) -> Void)?
        var wasReady = false
        var toldLost = false

        init(mainloop: OpaquePointer, lost: (@Sendable (String) -> Void)?) {
            self.mainloop = mainloop
            self.lost = lost
        }

        func changed(_ context: OpaquePointer) {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { wasReady = true }
            if wasReady, !toldLost, state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                toldLost = true
                lost?(PulseContext.lastError(context))  // MS3: the server went away
            }
            pa_threaded_mainloop_signal(mainloop, 0)
        }
    }

    /// Connects (bounded by libpulse's own timeout) and returns once the context is ready.
    /// - Parameters:
    ///   - server: a server string such as `unix:/run/…/native`; nil for the default
    ///     (`PULSE_SERVER`, then the user's server).
    ///   - name: the client's `application.name`.
    ///   - lost: told once, on the main loop's thread, when a ready connection ends (the server
    ///     stopped, crashed or restarted: MS3), with libpulse's reason.
    public init(server: String?, name: String, lost: (@Sendable (String) -> Void)? = nil) throws(ConnectionError) {
        guard let mainloop = pa_threaded_mainloop_new() else { throw ConnectionError(description: "cannot create a main loop") }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), name) else {
            pa_threaded_mainloop_free(mainloop)
            throw ConnectionError(description: "cannot create a libpulse context")
        }
        self.mainloop = mainloop
        self.context = context
        watch = StateWatch(mainloop: mainloop, lost: lost)
        pa_context_set_state_callback(
            context,
            { context, userdata in
                Unmanaged<StateWatch>.fromOpaque(userdata!).takeUnretainedValue().changed(context!)
            }, Unmanaged.passUnretained(watch).toOpaque())
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let target = server ?? "the default server"
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0, pa_threaded_mainloop_start(mainloop) >= 0
        else {
            throw ConnectionError(description: "cannot connect to \(target): \(Self.lastError(context))")
        }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            guard state != PA_CONTEXT_FAILED, state != PA_CONTEXT_TERMINATED else {
                throw ConnectionError(description: "cannot connect to \(target): \(Self.lastError(context))")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    deinit {
        // The last reference may go in one of the loop's own callbacks (an answer that carried the
        // owner, asked for just before it was dropped): there the loop's lock is held already, and
        // the loop cannot be stopped or freed from its own thread (libpulse asserts). Disconnected
        // here either way, so no callback runs after this object.
        let onLoopThread = pa_threaded_mainloop_in_thread(mainloop) != 0
        if !onLoopThread { pa_threaded_mainloop_lock(mainloop) }
        pa_context_set_state_callback(context, nil, nil)  // our own disconnect is no loss
        pa_context_disconnect(context)
        pa_context_unref(context)
        guard onLoopThread else {
            pa_threaded_mainloop_unlock(mainloop)
            pa_threaded_mainloop_stop(mainloop)
            pa_threaded_mainloop_free(mainloop)
            return
        }
        // Stopped and freed from a thread of its own.
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { loop in
                let mainloop = OpaquePointer(loop!)
                pa_threaded_mainloop_stop(mainloop)
                pa_threaded_mainloop_free(mainloop)
                return nil
            }, UnsafeMutableRawPointer(mainloop))
        if started == 0 { pthread_detach(thread) }  // else the idle loop is left: nothing is lost but a thread
    }

    /// Runs `body` with the main loop's lock held.
    public func locked<T>(_ body: () throws(ConnectionError) -> T) throws(ConnectionError) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Runs `body` with the main loop's lock held.
    public func locked<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    /// Waits for a main loop signal (the lock held).
    public func wait() { pa_threaded_mainloop_wait(mainloop) }

    /// The server's name and version as it reports them: `pulseaudio 16.1`, or
    /// `PulseAudio (on PipeWire 0.3.65) 15.0.0` from pipewire-pulse; nil if it does not answer.
    public var serverName: String? {
        serverInfo { "\(String(cString: $0.server_name)) \(String(cString: $0.server_version))" }
    }

    /// The default sink's name as the server tells this connection; nil if it does not answer.
    public var defaultSinkName: String? { serverInfo { $0.default_sink_name.map { String(cString: $0) } } }

    /// Asks for the server's information and reads one thing of it (waits for the answer).
    private func serverInfo(_ read: @escaping (pa_server_info) -> String?) -> String? {
        final class Answer {
            var text: String?
            var done = false
            let mainloop: OpaquePointer
            let read: (pa_server_info) -> String?
            init(_ mainloop: OpaquePointer, _ read: @escaping (pa_server_info) -> String?) {
                self.mainloop = mainloop
                self.read = read
            }
        }
        let answer = Answer(mainloop, read)
        return locked {
            let operation = pa_context_get_server_info(
                context,
                { _, info, userdata in
                    let answer = Unmanaged<Answer>.fromOpaque(userdata!).takeUnretainedValue()
                    if let info = info?.pointee { answer.text = answer.read(info) }
                    answer.done = true
                    pa_threaded_mainloop_signal(answer.mainloop, 0)
                }, Unmanaged.passUnretained(answer).toOpaque())
            guard let operation else { return nil }
            defer { pa_operation_unref(operation) }
            while !answer.done, pa_operation_get_state(operation) == PA_OPERATION_RUNNING { wait() }
            return answer.text
        }
    }

    /// Whether the connection still stands.
    public var isReady: Bool { pa_context_get_state(context) == PA_CONTEXT_READY }

    /// The context's last error, in words.
    public var lastError: String { Self.lastError(context) }

    static func lastError(_ context: OpaquePointer) -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }
}
