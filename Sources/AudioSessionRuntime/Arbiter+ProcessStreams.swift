import AudioSessionModel

#if canImport(Glibc)
import Glibc
#endif

/// §19 SO1: an app's streams are its own, whatever plays them. A sound-server stream of a
/// connected app's process (OpenAL, SDL, GStreamer, libpulse called directly) is governed by that
/// app's session exactly as one the client library made; the backend asks here which app a
/// process is, reports the stream's start and end as the session's I/O (IO1), and names the
/// streams for status (CL7's form).
extension Arbiter {
    /// The apps connected from each process other than the daemon's own (its hosted sessions and
    /// in-process apps are no other program's), leaving out a players bridge's player apps (PL1
    /// finds those by the player's process) — by the connection's pid.
    public func connectedAppProcesses() -> [Int32: [AppID]] {
        state.withLock { state in
            var processes: [Int32: [AppID]] = [:]
            let own = getpid()
            for link in state.connectionByApp.values {
                guard let connection = state.connections[link.id], let app = connection.app else { continue }
                guard connection.peer.pid > 1, connection.peer.pid != own, state.players[app] == nil,
                    state.hosted[app] == nil
                else { continue }
                processes[connection.peer.pid, default: []].append(app)
            }
            return processes
        }
    }

    /// SO1, IO1: a stream of the app's process started (`running`) or the last one ended: the
    /// session's output (or input) starts — activating it first, as an app's own start does — or
    /// stops. Returns the refusal (A3 during a system call, `!cat` for a category without that
    /// direction …): the backend keeps the stream muted until the session may play.
    public func reportProcessIO(_ app: AppID, output: Bool, running: Bool) -> SessionError? {
        guard let link = state.withLock({ $0.connectionByApp[app] }) else {
            return SessionError(.badParam, "app \(app) is not connected")
        }
        let call: AppCall =
            switch (output, running) {
            case (true, true): .startOutput
            case (true, false): .stopOutput
            case (false, true): .startInput
            case (false, false): .stopInput
            }
        if case .failed(let error) = handle(.call(call), from: ConnectionID(rawValue: link.id)) { return error }
        return nil
    }

    /// SO1, CL7: the streams of an app's process, as status lists them (empty: none).
    public func setProcessStreams(_ app: AppID, _ streams: [String]) {
        state.withLock { state in state.processStreams[app] = streams.isEmpty ? nil : streams }
    }
}
