import AudioSessionModel
import AudioSessionRuntime

/// §19 SO1: a stream of a connected app's own process — played through a Linux library (OpenAL,
/// SDL, GStreamer, libpulse itself) rather than the client library — is that app's own stream,
/// exactly as if the client library had made it: its session's gain and route, and its presence is
/// the session's output (or input) running (IO1): its start activates the session; refused, it
/// stays muted (`reconcileOwnStreams`: muted while the output is not running) until the session
/// may play. A process with several apps connected gives its untagged streams to none of them.
extension PulseBackend {
    /// What SO1 keeps: the streams each app's process plays and records, and the I/O reported for them.
    struct ProcessStreams {
        /// The streams given to an app by their process, with that app.
        var streams: [StreamKey: AppID] = [:]
        /// The directions whose running we reported (`app/output`, `app/input`): only those are
        /// stopped when the streams end (an app's own report is its own).
        var started: Set<String> = []
        /// A start refused, and what the session and the device were then: asked again once that changed.
        var refused: [String: String] = [:]
        /// Programs with several apps connected, logged once.
        var ambiguous: Set<Int32> = []
        /// Each connected process's program (CL2's reading), read once per process.
        var programs: [Int32: Int32] = [:]
    }

    /// SO1: the one app connected from the stream's program, if there is exactly one.
    /// A capture of a monitor (a level meter, a screen recorder) is no input of a session (CL1):
    /// it stays nobody's.
    func processApp(of stream: PulseStream) -> String? {
        if stream.isRecord, state.withLock({ $0.monitors.contains(stream.device) }) { return nil }
        let processes = arbiter.connectedAppProcesses()
        guard !processes.isEmpty, let program = program(of: stream) else { return nil }
        let known = state.withLock { $0.processStreams.programs }
        var apps: [AppID] = []
        var programs: [Int32: Int32] = [:]
        for (pid, connected) in processes {
            let its = known[pid] ?? Self.program(ofProcess: "\(pid)") ?? pid
            programs[pid] = its
            if its == program { apps += connected }
        }
        let logOnce = state.withLock { state in
            state.processStreams.programs = programs  // processes no longer connected are forgotten
            return apps.count > 1 && state.processStreams.ambiguous.insert(program).inserted
        }
        if logOnce {
            logger.info(
                "SO1: a process with several apps connected plays a stream that names none; it stays other audio",
                metadata: ["pid": "\(program)", "apps": "\(apps.map(\.rawValue).sorted())"])
        }
        return apps.count == 1 ? apps[0].rawValue : nil
    }

    /// A stream given to `app` by its process (SO1), or one that is no longer (nil: ended, or
    /// handed to another keeper): the app's I/O follows.
    func processStream(_ key: StreamKey, app: AppID?) {
        let previous = state.withLock { state in
            let previous = state.processStreams.streams[key]
            state.processStreams.streams[key] = app
            return previous
        }
        guard previous != app else { return }
        for changed in Set([previous, app].compactMap { $0 }) { followProcessIO(changed) }
    }

    /// Every app with streams of its process: its I/O as its streams say (after every step: a
    /// refusal is tried again once the session or the device changed).
    func followProcessIO() {
        let apps = state.withLock { Set($0.processStreams.streams.values) }
        for app in apps { followProcessIO(app) }
    }

    /// IO1 for one app's process streams: output running while one of them plays, input while one
    /// records; status lists them.
    func followProcessIO(_ app: AppID) {
        let keys = state.withLock { state in state.processStreams.streams.filter { $0.value == app }.map(\.key) }
        arbiter.setProcessStreams(
            app,
            keys.sorted { ($0.isRecord ? 1 : 0, $0.index) < ($1.isRecord ? 1 : 0, $1.index) }
                .map { $0.isRecord ? "capture \($0.index)" : "playback \($0.index)" })
        guard let status = arbiter.status(of: app) else { return }
        let systemSessions = arbiter.deviceStatus.systemSessions.count
        for output in [true, false] {
            let wanted = keys.contains { $0.isRecord != output }
            let running = output ? status.isOutputRunning : status.isInputRunning
            let direction = "\(app.rawValue)/\(output ? "output" : "input")"
            // What a refusal depended on: tried again only once one of these changed.
            let situation = "\(status.category) \(status.isActive) \(status.isInterrupted) \(systemSessions)"
            if wanted, !running, !status.isInterrupted {
                guard state.withLock({ $0.processStreams.refused[direction] != situation }) else { continue }
                if let refusal = arbiter.reportProcessIO(app, output: output, running: true) {
                    state.withLock { $0.processStreams.refused[direction] = situation }
                    logger.info(
                        "SO1: an app's own stream waits, muted: its session may not play now",
                        metadata: ["app": "\(app)", "direction": "\(output ? "output" : "input")", "error": "\(refusal)"])
                } else {
                    state.withLock { state in
                        state.processStreams.refused[direction] = nil
                        state.processStreams.started.insert(direction)
                    }
                }
            } else if !wanted, state.withLock({ $0.processStreams.started.remove(direction) != nil }) {
                state.withLock { $0.processStreams.refused[direction] = nil }
                if running { _ = arbiter.reportProcessIO(app, output: output, running: false) }
            }
        }
    }
}
