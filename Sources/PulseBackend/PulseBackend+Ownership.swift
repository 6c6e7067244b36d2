import AudioSessionModel
import AudioSessionRuntime

#if canImport(Glibc)
import Glibc
#endif

/// Whose a sound-server stream is — the one place that answers, in CL4's order:
/// 1. a **client**'s (it carries its app id, `audiosession.app`; or, SO1, its program is the
///    process of one connected app): governed by its session;
/// 2. the **server's own** (OA4): a stream a module plays between the server's devices (a
///    loopback, the echo canceller's to its master, a combined output's): nobody's — the sound in
///    it is the streams feeding it, each governed as what it is (muting the echo canceller's own
///    stream would silence the VoiceProcessingIO app feeding it, EN8, SO5);
/// 3. a **call**'s (§18: its program records and plays, CL2): the hosted call's own, never muted
///    as other audio or as a player's (CL4), or left alone during a system call it holds;
/// 4. a **player**'s (§16 PL1: its process, or an ancestor, is a player's);
/// 5. a **hosted stream**'s (§17 POL2 `session:`, decided when it appeared);
/// 6. otherwise **other audio** (OA4) — or, for a capture stream, nobody's (recordings of
///    programs that never heard of us are not governed; CL1 only follows them).
/// Before all of them, SO6: a connected app's **system sound** (`audiosession.system-sound`, from
/// the process of a connected app — a tag anyone else writes is ignored) is left as it is: mixed
/// with everything, never ducked nor muted (the app's library keeps it silent when it must be).
extension PulseBackend {
    enum StreamOwner: Equatable {
        case client(String)
        case call(String)
        case systemCall
        case player(String)
        case hosted(String)
        case systemSound
        case otherAudio
        case nobody

        /// The app whose session governs the stream as its own, if any.
        var app: String? {
            switch self {
            case .client(let app), .call(let app), .player(let app), .hosted(let app): app
            case .systemCall, .systemSound, .otherAudio, .nobody: nil
            }
        }
    }

    func owner(of stream: PulseStream) -> StreamOwner {
        if stream.properties[PulseStream.systemSoundProperty] != nil, isConnectedAppProgram(stream) { return .systemSound }
        if let app = stream.app { return .client(app) }
        if stream.isServersOwn { return .nobody }  // OA4: the server's own plumbing (a loopback, a filter)
        if let app = processApp(of: stream) { return .client(app) }  // SO1
        if let program = program(of: stream) {
            switch calls.owner(of: program) {
            case .session(let app): return .call(app.rawValue)
            case .systemCall: return .systemCall
            case nil: break
            }
        }
        if let app = playerApp(of: stream) { return .player(app) }
        if let app = hostedApp(of: stream) { return .hosted(app) }
        return stream.isRecord ? .nobody : .otherAudio
    }

    /// SO6: whether the stream's program is the process of a connected app (one or several).
    func isConnectedAppProgram(_ stream: PulseStream) -> Bool {
        guard let program = program(of: stream) else { return false }
        return arbiter.connectedAppProcesses().keys.contains { (Self.program(ofProcess: "\($0)") ?? $0) == program }
    }

    /// CL2: the program a stream is of — its process (as PL1 takes a player's: its
    /// `application.process.id`, or its client's), taken up to the highest ancestor running the
    /// same executable, so a browser's audio process is its browser. Nil when the server does not say.
    func program(of stream: PulseStream) -> Int32? {
        let key = StreamKey(index: stream.index, isRecord: stream.isRecord)
        if let known = state.withLock({ $0.programs[key] }) { return known }  // read once per stream
        let program = Self.program(ofProcess: stream.properties["application.process.id"])
        if let program { state.withLock { $0.programs[key] = program } }
        return program
    }

    /// The program of a process: the highest ancestor running the same executable.
    static func program(ofProcess text: String?) -> Int32? {
        guard var pid = text.flatMap({ Int32($0) }), pid > 1 else { return nil }
        guard let name = command(of: pid) else { return pid }
        for _ in 0..<16 {
            guard let parent = parent(of: pid), parent > 1, command(of: parent) == name else { break }
            pid = parent
        }
        return pid
    }

    /// A process's command name (`/proc/PID/comm`), nil when it is gone.
    static func command(of pid: Int32) -> String? { ProcessName.of(pid) }

    /// CL4: whether the stream's program is in a call, or one is beginning for it (its streams
    /// change hands a moment later).
    func isClaimedByACall(_ key: StreamKey) -> Bool {
        guard let program = state.withLock({ $0.programs[key] }) else { return false }
        return calls.claims(program)
    }

    /// CL4 (revision 6): whether the stream's program records from a real input now.
    func isRecordingProgram(_ key: StreamKey) -> Bool {
        guard let program = state.withLock({ $0.programs[key] }) else { return false }
        return calls.records(program)
    }

    /// CL4 (revision 6): a program started or stopped recording from a real input: its streams of
    /// other audio are muted, or not, as that now says.
    func followRecording(of program: Int32) {
        let indexes = state.withLock { state in
            state.streams.keys.filter { state.programs[StreamKey(index: $0, isRecord: false)] == program }
        }
        for index in indexes { applyMute(index) }
    }

    /// CL1: what the call watch is told of a stream of a program that never heard of us: when it
    /// appears or moves to another device (a monitor's or not), not on every report of it.
    func followForCalls(_ stream: PulseStream) {
        guard stream.isForeign, let program = program(of: stream) else { return }
        let key = StreamKey(index: stream.index, isRecord: stream.isRecord)
        guard state.withLock({ $0.followed.updateValue(stream.device, forKey: key) != stream.device }) else { return }
        let facts = CallDetector.Facts(
            name: stream.properties["application.name"] ?? stream.properties["application.process.binary"] ?? "pid \(program)",
            binary: stream.properties["application.process.binary"])
        let isMonitor = stream.isRecord && state.withLock { $0.monitors.contains(stream.device) }
        calls.present(
            CallDetector.StreamID(index: stream.index, isCapture: stream.isRecord), of: program, facts, isMonitor: isMonitor)
        if stream.isRecord { followRecording(of: program) }  // CL4 (revision 6)
    }
}
