import CPulse
import Foundation
import PulseClient

/// A playback stream with `media.role=phone` from a libpulse connection of the benchmark's own:
/// what module-role-ducking reacts to. Connected at `init` (the moment the benchmark counts from),
/// disconnected at `close`.
final class PhoneStream {
    private let connection: PulseContext
    private let stream: OpaquePointer

    init(on connection: PulseContext) {
        self.connection = connection
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: 48_000, channels: 1)
        let properties = pa_proplist_new()
        pa_proplist_sets(properties, "media.role", "phone")
        stream = connection.locked {
            let stream = pa_stream_new_with_proplist(connection.context, "call", &spec, nil, properties)!
            pa_stream_connect_playback(stream, nil, nil, pa_stream_flags_t(0), nil, nil)
            return stream
        }
        pa_proplist_free(properties)
    }

    /// Disconnects once the stream is ready: the server may announce it before this connection
    /// has the server's answer, and a stream not ready yet cannot be disconnected (it would stay).
    func close() {
        while connection.locked({ pa_stream_get_state(stream) == PA_STREAM_CREATING }) { usleep(50) }
        connection.locked {
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
    }
}

/// Runs a command line tool against the server (pactl, paplay) with posix_spawn.
enum Tool {
    /// Starts `arguments` with PULSE_SERVER set, its output discarded; returns its pid.
    static func start(_ arguments: [String], server: String) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let environment: [String] = ["PULSE_SERVER=\(server)", "HOME=/tmp", "PATH=/usr/bin:/bin"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { fail("cannot start \(arguments[0])") }
        return pid
    }

    /// Runs `arguments` to its end; whether it succeeded.
    @discardableResult
    static func run(_ arguments: [String], server: String) -> Bool {
        var status: Int32 = 0
        waitpid(start(arguments, server: server), &status, 0)
        return status == 0
    }
}
