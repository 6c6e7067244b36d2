import AudioSessionModel
import AudioSessionRuntime

/// POL2 `session:` on a real server: a stream the device policy gives an intent is the own
/// stream of a session the runtime hosts for it (`Arbiter.hostSession`): ducked, silenced and
/// moved as that session says, muted while its output is stopped (an interruption), and its
/// session departs when the stream ends or the server goes away.
extension PulseBackend {
    /// The hosted session's app id for a stream: `stream.` + role + binary, each reduced to an
    /// app id's characters (T3).
    static func hostedAppID(role: String?, binary: String?) -> AppID {
        func part(_ text: String?, _ fallback: String) -> String {
            let kept = String((text ?? "").unicodeScalars.prefix(64).map { AppID.isAllowed($0) ? Character($0) : "_" })
            return kept.isEmpty ? fallback : kept
        }
        return AppID("stream.\(part(role, "none")).\(part(binary, "unknown"))")
    }

    /// A new stream the policy hosts a session for (its role and binary as the policy matched
    /// them): hosted, and an own stream from now on. False when the session cannot be hosted (the
    /// stream is then other audio).
    func hostStream(_ stream: PulseStream, _ facts: StreamFacts, _ intent: DevicePolicy.Intent, origin: String) -> Bool {
        let preferred = Self.hostedAppID(role: facts.role, binary: facts.binary)
        let process = stream.properties["application.process.id"].flatMap { Int32($0) }
        guard let app = arbiter.hostSession(preferred, intent: intent, origin: origin, processID: process) else { return false }
        state.withLock { $0.hostedStreams[stream.index] = app }
        ownStreamPresent(stream, app: app.rawValue)
        return true
    }

    /// The app of a stream with a hosted session, if it has one.
    func hostedApp(of stream: PulseStream) -> String? {
        stream.isRecord ? nil : state.withLock { $0.hostedStreams[stream.index]?.rawValue }
    }

    /// The stream ended (or its server went away): its session departs.
    func hostedStreamRemoved(_ index: UInt32) {
        guard let app = state.withLock({ $0.hostedStreams.removeValue(forKey: index) }) else { return }
        arbiter.endHostedSession(app)
    }
}
