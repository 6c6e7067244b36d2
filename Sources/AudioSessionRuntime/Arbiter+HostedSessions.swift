import AudioSessionModel
import AudioSessionWire
import Dispatch

/// POL2 `session:`: a sound-server stream that declared nothing, given an intent by the device
/// policy, becomes an app of its own whose session the daemon holds: id `stream.` + role +
/// binary, registered by the daemon itself (capabilities background-audio and now-playing, app
/// state foreground, whatever the trust mode: the device's configuration is the authority), its
/// category set as the table says, active with output running while the stream runs. It takes
/// part in arbitration like any app's — it ducks, mixes, interrupts and is interrupted — and the
/// backend governs the stream as the app's own (its gain, muted while its output is stopped).
/// A stream cannot be paused: interrupted, it is muted until the interruption ends, and then
/// its session is activated again (with or without shouldResume: the stream never stopped);
/// refused (A3 during a call), it waits muted until the system session ends.
extension Arbiter {
    /// Where hosted sessions are activated again, off the arbiter's lock.
    static let hostedQueue = DispatchQueue(label: "audiosession.hosted-sessions")

    /// Hosts a session for a stream: `preferred`, or `preferred.2`, `.3` … when that id is
    /// connected; its category set and its output started. Returns the app id, or nil when it
    /// cannot be hosted (the reason logged; the stream then stays other audio).
    /// `processID`: the stream's process, shown in status (PL7's way for players).
    public func hostSession(
        _ preferred: AppID, intent: DevicePolicy.Intent, origin: String, processID: Int32? = nil, kind: HostedKind = .stream
    ) -> AppID? {
        let hosted = state.withLock { state -> (AppID, ConnectionID)? in
            var app = preferred
            var suffix = 2
            while state.connectionByApp[app] != nil {
                app = AppID("\(preferred.rawValue).\(suffix)")
                suffix += 1
            }
            let hello = Hello(role: .app(app, [.backgroundAudio, .nowPlaying]))
            switch register(
                hello, peer: .thisProcess, sink: HostedSessionSink(arbiter: self, app: app), start: .foreground, &state)
            {
            case .success(let connection):
                state.hosted[app] = HostedSession(connection: connection, origin: origin, processID: processID, kind: kind)
                return (app, connection)
            case .failure(let error):
                logger.warning("cannot host a session for a stream", metadata: ["app": "\(app)", "error": "\(error)"])
                return nil
            }
        }
        guard let (app, connection) = hosted else { return nil }
        let reply = handle(.call(.setCategory(intent.category, mode: intent.mode, options: intent.options)), from: connection)
        if case .failed(let error) = reply {
            logger.warning("cannot set a hosted session's category", metadata: ["app": "\(app)", "error": "\(error)"])
        }
        startHostedOutput(app)
        logger.info(
            kind == .stream ? "hosted a session for a stream" : "hosted a session for a call",
            metadata: ["app": "\(app)", "intent": "\(intent)", "policy": "\(origin)"])
        return app
    }

    /// CL7: the streams a hosted session's program has now (as status lists them).
    public func setHostedStreams(_ app: AppID, _ streams: [String]) {
        state.withLock { state in state.hosted[app]?.streams = streams }
    }

    /// The stream ended: its session departs, as a disconnected app's would.
    public func endHostedSession(_ app: AppID) {
        guard let connection = state.withLock({ $0.hosted.removeValue(forKey: app)?.connection }) else { return }
        disconnect(connection)
    }

    /// The policy entry that made `app` a hosted session (POL4), nil for any other app.
    public func hostedOrigin(of app: AppID) -> String? { state.withLock { $0.hosted[app]?.origin } }

    /// IO1: output starts, activating the session first; refused, it waits (muted) until an
    /// interruption or a system session ends.
    func startHostedOutput(_ app: AppID) {
        guard let connection = state.withLock({ $0.hosted[app]?.connection }) else { return }
        if case .failed(let error) = handle(.call(.startOutput), from: connection) {
            logger.debug("a hosted session waits, muted", metadata: ["app": "\(app)", "error": "\(error)"])
        }
    }

    /// After a system session ended: every hosted session that is not running tries again.
    func restartWaitingHostedSessions(_ state: State) {
        let waiting = state.hosted.keys.filter { state.engine.status(of: $0)?.isOutputRunning == false }
        guard !waiting.isEmpty else { return }
        Self.hostedQueue.async { [weak self] in
            for app in waiting { self?.startHostedOutput(app) }
        }
    }
}

/// What a hosted session stands for.
public enum HostedKind: Hashable, Sendable {
    /// A stream the device policy gave an intent (POL2 `session:`).
    case stream
    /// A program in a call (§18 CL3), with its name (`application.name`).
    case call(String)
}

/// A hosted session's record in the arbiter.
struct HostedSession: Sendable {
    var connection: Arbiter.ConnectionID
    /// The policy entry that made it (POL4).
    var origin: String
    /// The stream's process, when the server says.
    var processID: Int32?
    var kind: HostedKind = .stream
    /// CL7: a call's streams.
    var streams: [String] = []
}

/// A hosted session's connection: it hears its notifications and, at an interruption's end,
/// starts its output again (off the arbiter's lock, as `ConnectionSink` requires).
final class HostedSessionSink: ConnectionSink {
    weak let arbiter: Arbiter?
    let app: AppID

    init(arbiter: Arbiter, app: AppID) {
        self.arbiter = arbiter
        self.app = app
    }

    func send(_ message: ServerMessage) {
        guard case .event(.notification(_, .interruptionEnded)) = message else { return }
        Arbiter.hostedQueue.async { [arbiter, app] in arbiter?.startHostedOutput(app) }
    }

    func close() {}
}
