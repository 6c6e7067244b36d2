import AudioSessionModel
import AudioSessionRuntime
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// MS3: the sound server comes and goes under a running daemon (a crash, a restart on a package
/// upgrade, a logout), as mediaserverd's death does on iOS.
///
/// - Lost (or not there at start): logged once at warning with the server's name; the arbiter
///   is told `mediaServicesLost` (MS1: every app hears `media-services-lost`, app calls fail
///   with `msrv`); the server's ports, streams and calls leave the device, silently.
/// - Reconnection by itself on the backend's queue: one attempt after 100 ms, then doubling to
///   2 s — a timer, no thread and no busy loop; while the server's socket file is missing no
///   connection is even tried. The socket's directory is watched meanwhile (inotify), so a
///   returning server is tried the moment its socket appears.
/// - Back: the arbiter is told `mediaServicesReset` (MS2: sessions to defaults, apps hear
///   `media-services-reset` and nothing else in that step), then the server's listing is applied
///   as if every port and stream had just appeared, and the output volume and input gains the
///   engine kept are written back to the server. Logged once at info with the time it took.
///
/// Each connection has a number: events of an older one still queued are dropped.
extension PulseBackend {
    /// On the queue: connects, or schedules the next attempt.
    func connect() {
        guard relay.target.withLock({ $0 }) != nil else { return }  // closed meanwhile
        guard server.withLock({ $0 }) == nil else { return }  // connected already (a watch and a timer both asked)
        if let path = Self.socketPath(of: address), access(path, F_OK) != 0 {
            return notReached("no server socket at \(path)")
        }
        let generation = state.withLock { state in
            state.link.generation += 1
            return state.link.generation
        }
        let queue = queue
        let relay = relay
        let connection: PulseServer
        do {
            connection = try PulseServer(server: address) { event in
                queue.async { relay.target.withLock { $0 }?.handle(event, of: generation) }
            }
        } catch {
            return notReached(error.description)
        }
        let name = connection.name ?? (address ?? "the default server")
        server.withLock { $0 = connection }
        writeBackLedger(to: connection)  // OA6: before the listing's streams are judged
        stopWatchingForServer()
        let (lostSince, appeared) = state.withLock { state in
            let before = state.link
            state.link = Link(generation: generation, serverName: name, hasConnected: true)
            // Back after a loss: its devices get the volumes the engine kept (`Restoring`).
            state.restoring = before.lostSince != nil && before.hasConnected ? Restoring(connected: .now) : nil
            return (before.lostSince, before.socketAppeared)
        }
        // §9.1: after the listing's events (queued behind this), the built-in microphone is listed
        // only if the server has a device for it.
        queue.async { [self] in
            followBuiltInMicrophone()
            pollPipeWire()  // RT13
        }
        guard let lostSince else {
            logger.info("connected to the sound server", metadata: ["server": "\(name)"])
            return
        }
        // MS2 before the listing (queued behind this) is applied: ports and streams then appear
        // as new, after the reset, and no route change is part of the reset's step.
        arbiter.report(.mediaServicesReset)
        queue.async { [self] in  // after the listing's events: the server is governed
            let now = ContinuousClock.now
            let socket = appeared.map { "; governed \((now - $0).milliseconds) ms after its socket appeared" } ?? ""
            logger.info(
                "sound server back after \((now - lostSince).milliseconds) ms\(socket); apps are told media services were reset",
                metadata: ["server": "\(name)"])
        }
    }

    /// On the queue: an event of connection number `generation`; an older connection's are dropped.
    func handle(_ event: PulseServer.Event, of generation: UInt64) {
        guard state.withLock({ $0.link.generation }) == generation, server.withLock({ $0 }) != nil else { return }
        if case .lost(let reason) = event { return serverLost(reason) }
        handle(event)
    }

    /// The connection ended: MS1 for every app, the server's devices and streams gone, a retry.
    private func serverLost(_ reason: String) {
        let old = server.withLock { server -> PulseServer? in
            defer { server = nil }
            return server
        }
        old?.close()
        let name = state.withLock { state in
            state.link.lostSince = ContinuousClock.now
            state.link.delay = 0.1
            return state.link.serverName ?? "the sound server"
        }
        logger.warning(
            "sound server lost; apps are told media services were lost (MS3); reconnecting",
            metadata: ["server": "\(name)", "reason": "\(reason)"])
        arbiter.report(.mediaServicesLost)
        forgetServerDevices()
        watchForServer()
        scheduleRetry()
        // `old` goes here, on the queue: its main loop thread is stopped and joined.
    }

    /// No connection now: the first failure in a row is the loss (or, at start, the server not
    /// there yet); the rest only wait for the next attempt.
    private func notReached(_ why: String) {
        let first = state.withLock { state in
            guard state.link.lostSince == nil else { return false }
            state.link.lostSince = ContinuousClock.now
            return true
        }
        if first {
            logger.warning(
                "cannot reach the sound server; apps are told media services are lost (MS3); retrying",
                metadata: ["server": "\(address ?? "the default server")", "error": "\(why)"])
            arbiter.report(.mediaServicesLost)
            watchForServer()
        }
        scheduleRetry()
    }

    /// While the server is away, its socket's directory is watched (inotify): a socket made
    /// there is tried at once, so a returning server is governed within milliseconds rather than
    /// at the next timer (up to 2 s). Without such a directory the timer alone retries.
    private func watchForServer() {
        guard state.withLock({ $0.link.watch == nil }), let path = Self.socketPath(of: address),
            let slash = path.lastIndex(of: "/")
        else { return }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        guard inotify_add_watch(descriptor, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) >= 0 else {
            Glibc.close(descriptor)
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in
            var events = [UInt8](repeating: 0, count: 4096)
            while read(descriptor, &events, events.count) > 0 {}  // drained: what changed is not read
            self?.serverSocketAppeared()
        }
        source.setCancelHandler { Glibc.close(descriptor) }
        source.resume()
        let watch = SocketWatch(source: source)
        state.withLock { $0.link.watch = watch }
    }

    func stopWatchingForServer() {
        state.withLock { state in
            state.link.watch?.cancel()
            state.link.watch = nil
        }
    }

    /// Something was made in the server socket's directory: try now, and soon again if the
    /// server is not listening yet.
    private func serverSocketAppeared() {
        guard server.withLock({ $0 }) == nil else { return }
        state.withLock { state in
            state.link.delay = 0.1
            if state.link.socketAppeared == nil { state.link.socketAppeared = ContinuousClock.now }
        }
        connect()
    }

    /// The next attempt: 100 ms after the loss, doubling to 2 s.
    private func scheduleRetry() {
        let delay = state.withLock { state in
            let delay = state.link.delay
            state.link.delay = min(delay * 2, 2)
            return delay
        }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.connect() }
    }

    /// The lost server's ports, streams and calls leave the device (the engine is in MS3's lost
    /// state: apps are told nothing of it); the backend forgets everything it knew of the server.
    private func forgetServerDevices() {
        calls.serverLost()  // §18: every call ends now; its session departs, what it interrupted resumes
        let (plugged, streams) = state.withLock { ($0.plugged.keys.sorted(), $0.streams.keys.sorted()) }
        for uid in plugged { unplug(uid, because: "the server went away") }
        for index in streams { streamRemoved(index) }  // other audio stopped; the last call's stream ends the call
        let hosted = state.withLock { $0.hostedStreams.keys.sorted() }
        for index in hosted { hostedStreamRemoved(index) }  // POL2: their sessions depart
        state.withLock { $0.forgetServer() }
    }

    /// The socket a server address names, when it names one (`unix:PATH`, a path, or the
    /// default: `PULSE_SERVER`, then `$XDG_RUNTIME_DIR/pulse/native`); nil for anything else.
    static func socketPath(of address: String?) -> String? {
        let server =
            address ?? getenv("PULSE_SERVER").map { String(cString: $0) }
            ?? getenv("XDG_RUNTIME_DIR").map { "unix:" + String(cString: $0) + "/pulse/native" }
        guard let server, !server.contains(" ") else { return nil }
        if server.hasPrefix("unix:") { return String(server.dropFirst(5)) }
        return server.hasPrefix("/") ? server : nil
    }

    /// The connection's state (MS3).
    struct Link {
        /// The current connection's number.
        var generation: UInt64 = 0
        /// When the server was lost (or first not reached); nil while connected.
        var lostSince: ContinuousClock.Instant?
        /// The connection's first listing is applied (`followBuiltInMicrophone`).
        var listed = false
        /// The next retry's delay, seconds.
        var delay = 0.1
        var serverName: String?
        /// A connection stood once: the server's return writes the kept volumes back.
        var hasConnected = false
        /// While lost: the watch on the server socket's directory.
        var watch: SocketWatch?
        /// While lost: when something first appeared in that directory (the server's return,
        /// for the log's figure).
        var socketAppeared: ContinuousClock.Instant?
    }

    /// The inotify source, used and cancelled on the backend's queue only.
    struct SocketWatch: @unchecked Sendable {
        let source: any DispatchSourceRead
        func cancel() { source.cancel() }
    }
}

extension PulseBackend.State {
    /// Everything known of a server that went away.
    mutating func forgetServer() {
        names = [true: [:], false: [:]]
        plugged = [:]
        builtInSpeaker = nil
        builtInMicrophone = nil
        streams = [:]
        ownStreams = [:]
        ledger.serverLost()
        defaultSink = nil
        askedDefaultSink = nil
        reportedOutputChoice = nil
        pollingMoves = false
        volumeSink = nil
        volumes = [true: [:], false: [:]]
        balances = [true: [:], false: [:]]
        deviceWrites = [true: [:], false: [:]]  // the old server's: never a reason to doubt the new one's reports
        monitors = []
        programs = [:]
        lineages = [:]
        followed = [:]
    }
}
