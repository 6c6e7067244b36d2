import AudioSessionModel
import AudioSessionRuntime
import Dispatch
import Logging
import Synchronization

/// The sound server's devices as the session's ports: every sink and source that maps to an
/// accessory (`PulseDevice.role`) is plugged into the arbiter with its name as the UID while it
/// exists and its active port is available, and unplugged when it goes — so apps see
/// `newDeviceAvailable` / `oldDeviceUnavailable` route changes (RT11) as on a phone. The
/// internal speaker and microphone are the profile's built-in ports.
///
/// Streams of apps that do not use us are *other audio* (`PulseBackend+Streams.swift`).
/// The library's own streams follow their session (`PulseBackend+OwnStreams.swift`); the
/// output volume and input gains are the routing owner's sink's and the sources' volumes
/// (`PulseBackend+DeviceVolumes.swift`).
///
/// Everything the server reports and everything sent to it goes through one serial queue: the
/// arbiter is never called with libpulse's lock held, nor libpulse with the arbiter's.
public final class PulseBackend: AudioBackend {
    struct State {
        /// Server index → device name, per direction, to know what a `removed` event names.
        var names: [Bool: [UInt32: String]] = [true: [:], false: [:]]
        /// Plugged accessories by UID, with their kind.
        var plugged: [String: AccessoryKind] = [:]
        /// The server devices standing for the built-in ports.
        var builtInSpeaker: String?
        var builtInMicrophone: String?
        /// Foreign streams by sink-input index.
        var streams: [UInt32: ForeignStream] = [:]
        /// The client library's own streams, playback and record.
        var ownStreams: [StreamKey: OwnStream] = [:]
        /// POL2: the streams whose sessions the runtime hosts, by sink-input index.
        var hostedStreams: [UInt32: AppID] = [:]
        /// SO1: the streams of connected apps' own processes (`PulseBackend+ProcessStreams.swift`).
        var processStreams = ProcessStreams()
        /// CL1: the sources that are monitors (a capture of one is never a recording), by index.
        var monitors: Set<UInt32> = []
        /// CL2: each foreign stream's program, read once (`program(of:)`).
        var programs: [StreamKey: Int32] = [:]
        /// PL1: each foreign stream's process and ancestors, read once (`lineage(of:)`).
        var lineages: [StreamKey: [Int32]] = [:]
        /// CL1: the device each stream was on when the call watch was last told of it.
        var followed: [StreamKey: UInt32] = [:]
        /// OA6: the programs whose saved state may hold a change of ours, with their own.
        var ledger = SavedStateLedger()
        /// OA6, D1: what we last wrote to each program's latest stream that ended carrying a change of
        /// ours, by group: the server may restore one of those volumes on the program's next stream
        /// after our first writes to it (WirePlumber saved the ended stream's duck and applied it a
        /// moment late), and that is ours, not the program's own (`foreignStreamChanged`).
        var endedWrites: [String: WrittenVolumes] = [:]
        /// HW7: the default sink.
        var defaultSink: String?
        /// What a new connection was told the default sink is, and whether one is being asked
        /// (`followDefaultSink`: pipewire-pulse names none to an early connection).
        var askedDefaultSink: String?
        var askingDefaultSink = false
        /// RT13 (a): the output choice last told to the engine (`.none`: nothing told yet).
        var reportedOutputChoice: String??
        /// RT13, PipeWire: the default and own streams are asked about once a second (`pollPipeWire`).
        var pollingMoves = false
        /// HW7: the sink whose volume the engine's output volume is now (`volumeSink(routingOwner:)`).
        var volumeSink: String?
        /// HW6, HW7: each sink's (true) and source's volume as last reported (or written), by name.
        var volumes: [Bool: [String: Double]] = [true: [:], false: [:]]
        /// Each sink's and source's channel volumes as last reported: the balance a write keeps.
        var balances: [Bool: [String: [UInt32]]] = [true: [:], false: [:]]
        /// HW6, HW7: our latest write to each sink and source, and when (`isStale`).
        var deviceWrites: [Bool: [String: (volume: Double, at: ContinuousClock.Instant)]] = [true: [:], false: [:]]
        /// MS3: the connection to the server, lost or not (`PulseBackend+Connection.swift`).
        var link = Link()
        /// MS3: after a server's return, which of its devices still get the volumes the engine
        /// kept (`isRestoring(_:isSink:)`).
        var restoring: Restoring?
    }

    let arbiter: Arbiter
    let logger: Logger
    /// The server it connects to (nil: `PULSE_SERVER`, then the user's).
    let address: String?
    let state = Mutex(State())
    let server = Mutex<PulseServer?>(nil)
    let queue = DispatchQueue(label: "audiosessiond.pulse")
    /// The server's events reach the backend through this until `close()`.
    let relay: Relay
    /// Whether a reconciliation of the own streams and the device's volumes waits on the queue
    /// (at most one: it reads the arbiter as it is when it runs).
    let reconciliationPending = Atomic<Bool>(false)
    /// `close()` has begun: nothing more is written but its undoing (OA6).
    let closing = Atomic<Bool>(false)
    /// §18: who is in a call, decided by the runtime from the streams reported here.
    let calls: CallWatch
    /// OA6: the file the ledger's groups are kept in (nil: none; a crash then leaves them).
    let ledgerPath: String?
    /// A save of the ledger waits (at most one: it writes the ledger as it is when it runs).
    let ledgerSavePending = Atomic<Bool>(false)

    final class Relay: Sendable {
        let target = Mutex<PulseBackend?>(nil)
    }

    /// Connects to the server and keeps the arbiter's ports in step with it until `close()`.
    /// A server that is not there (yet), or goes away later, is waited for (MS3): the arbiter
    /// is told media services are lost, and the backend connects again by itself when the
    /// server appears (`PulseBackend+Connection.swift`). Returns once the first attempt is
    /// over and, if it connected, the server's listing is applied.
    /// - Parameter ledger: OA6: the file that keeps, across a crash, which programs may have a
    ///   duck or mute of ours saved by the server (`PulseBackend+SavedStates.swift`); what a
    ///   previous run left there is written back at connection.
    public init(arbiter: Arbiter, server address: String?, ledger: String? = nil, logger: Logger) {
        self.arbiter = arbiter
        self.logger = logger
        self.address = address
        ledgerPath = ledger
        state.withLock { $0.ledger = Self.loadLedger(from: ledger, logger: logger) }
        let relay = Relay()
        self.relay = relay
        calls = CallWatch(arbiter: arbiter, logger: logger) { relay.target.withLock { $0 }?.playersChanged() }
        relay.target.withLock { $0 = self }
        arbiter.attach(self)
        queue.sync { connect() }
        queue.sync {}  // the initial listing is applied before the daemon starts listening
    }

    /// MS3: when the server was lost (or first not reached), nil while connected.
    public var lostSince: ContinuousClock.Instant? { state.withLock { $0.link.lostSince } }

    /// Stops governing the server. OA6: first every change of ours on a stream that is not a
    /// client's is undone (a duck, a mute of other audio, of a player's, a call's or a hosted
    /// stream's), and the server has handled it before this returns — the daemon stopping (SIGTERM:
    /// a restart, an upgrade) leaves every program as the user left it.
    public func close() {
        // Nothing more is taken from the server or the arbiter (a player's app departing as the
        // daemon stops would otherwise have its stream muted again as other audio after the undo).
        closing.store(true, ordering: .sequentiallyConsistent)
        relay.target.withLock { $0 = nil }
        let closed = queue.sync { () -> PulseServer? in  // after everything queued before: the last word is ours
            undoOurChanges()
            // What streams that ended ducked or muted left saved (a write-back may be on its way).
            if let server = server.withLock({ $0 }) {
                server.writeSaved(Array(state.withLock { $0.ledger.groups.values }), wait: true)
                state.withLock { $0.ledger = SavedStateLedger() }
                saveLedger()
            }
            // Let go on the queue: work queued behind the undo (an effect judged a moment before
            // `closing` was set) finds no server to write to.
            return server.withLock { server in
                defer { server = nil }
                return server
            }
        }
        closed?.close()
        queue.async { [self] in stopWatchingForServer() }
    }

    /// The one door (`AudioBackend`): after every step, the other audio's gains and mutes are
    /// carried out and one reconciliation of the own streams and device volumes is queued.
    public func carryOut(_ effects: [DeviceEffect]) {
        guard !closing.load(ordering: .sequentiallyConsistent) else { return }  // OA6: undone, not redone
        let controls: [(id: String, gain: Double, muted: Bool)] = effects.compactMap {
            if case .otherAudio(let id, let gain, let muted) = $0 { (id, gain, muted) } else { nil }
        }
        if !controls.isEmpty {
            queue.async { [self] in
                guard !closing.load(ordering: .sequentiallyConsistent) else { return }  // queued behind the undo
                for control in controls { applyControl(control.id, gain: control.gain, muted: control.muted) }
            }
        }
        guard !reconciliationPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            reconciliationPending.store(false, ordering: .releasing)
            guard !closing.load(ordering: .sequentiallyConsistent) else { return }  // queued behind the undo
            reconcileOwnStreams()
            reconcileDeviceVolumes()
        }
    }

    /// The accessories plugged for server devices, by UID (for status and tests).
    public var pluggedAccessories: [String: AccessoryKind] { state.withLock { $0.plugged } }

    /// The server devices standing for the built-in speaker and microphone, if any.
    public var builtIns: (speaker: String?, microphone: String?) {
        state.withLock { ($0.builtInSpeaker, $0.builtInMicrophone) }
    }

    func handle(_ event: PulseServer.Event) {
        switch event {
        case .present(let device):
            let stale = isStale(device)
            // HW6, HW7: whether its volume changed (a report that repeats it is no one's change).
            let changed = state.withLock { state -> Bool in
                state.names[device.isSink, default: [:]][device.index] = device.name
                if !device.isSink, device.isMonitor { state.monitors.insert(device.index) }
                if !device.channelVolumes.isEmpty {
                    state.balances[device.isSink, default: [:]][device.name] = device.channelVolumes
                }
                guard let volume = device.volume, !stale else { return false }
                let previous = state.volumes[device.isSink, default: [:]][device.name]
                state.volumes[device.isSink, default: [:]][device.name] = volume
                return previous.map { abs($0 - volume) > Self.volumeStep / 2 } ?? true
            }
            if !stale, let volume = device.volume { confirmRestored(device.name, isSink: device.isSink, volume: volume) }
            if changed {
                logger.debug(
                    device.isSink ? "a sink's volume" : "a source's volume",
                    metadata: ["device": "\(device.name)", "volume": "\(device.volume ?? 0)"])
            }
            update(device)
            if device.isSink {
                followOutputVolume(reported: changed ? device.name : nil)
            } else {
                if changed { followInputGain(of: device.name) }
                if state.withLock({ $0.link.listed }) { followBuiltInMicrophone() }
            }
        case .removed(let index, let isSink):
            guard
                let name = state.withLock({ state in
                    if !isSink { state.monitors.remove(index) }
                    return state.names[isSink]?.removeValue(forKey: index).map { name in
                        state.volumes[isSink]?[name] = nil
                        state.balances[isSink]?[name] = nil
                        return name
                    }
                })
            else { return }
            if !isSink, state.withLock({ $0.builtInMicrophone == name }) {
                state.withLock { $0.builtInMicrophone = nil }
                followBuiltInMicrophone()
            }
            unplug(name, because: "removed")
        case .streamPresent(let stream):
            streamReported(stream)  // own, a player's, or other audio (PulseBackend+Players.swift)
        case .streamRemoved(let index, let isRecord):
            let program = state.withLock { state -> Int32? in
                let key = StreamKey(index: index, isRecord: isRecord)
                defer { (state.programs[key], state.lineages[key], state.followed[key]) = (nil, nil, nil) }
                return state.programs[key]
            }
            calls.removed(CallDetector.StreamID(index: index, isCapture: isRecord))
            if isRecord, let program { followRecording(of: program) }  // CL4 (revision 6): it may be muted again
            processStream(StreamKey(index: index, isRecord: isRecord), app: nil)  // SO1: the app's I/O follows
            if ownStreamRemoved(index, isRecord: isRecord) {
                if !isRecord { hostedStreamRemoved(index) }
            } else if !isRecord {
                streamRemoved(index)
            }
        case .defaultSink(let name):
            followDefaultSink(name)
        case .lost:
            break  // handled before (`handle(_:of:)`)
        }
    }

    /// §9.1: the built-in microphone is a port of the device only while the server has a device
    /// for it (no phantom microphone on a desktop without one).
    func followBuiltInMicrophone() {
        let present = state.withLock { state in
            state.link.listed = true
            return state.builtInMicrophone != nil
        }
        arbiter.setBuiltInMicrophone(present: present)
    }

    private func update(_ device: PulseDevice) {
        switch device.role {
        case .builtInSpeaker:
            state.withLock { $0.builtInSpeaker = device.name }
            followOutputChoice()  // RT13 (a): the default may be it
        case .builtInMicrophone:
            state.withLock { $0.builtInMicrophone = device.name }
        case .ignored(let reason):
            logger.debug("server device not a session port", metadata: ["device": "\(device.name)", "reason": "\(reason)"])
        case .accessory(let kind):
            let current = state.withLock { $0.plugged[device.name] }
            if current != nil, current != kind || !device.isAvailable {
                unplug(device.name, because: device.isAvailable ? "now a \(kind)" : "its port is unavailable")
            }
            if device.isAvailable, current != kind { plug(kind, device) }
        }
    }

    private func plug(_ kind: AccessoryKind, _ device: PulseDevice) {
        // Known as plugged before the apps hear of it (a route change may reach them first).
        state.withLock { $0.plugged[device.name] = kind }
        if let error = arbiter.report(.plug(kind, uid: device.name, sampleRate: fixedRate(of: device))) {
            state.withLock { $0.plugged[device.name] = nil }
            logger.warning("cannot plug a server device", metadata: ["device": "\(device.name)", "error": "\(error)"])
            return
        }
        logger.info("plugged", metadata: ["device": "\(device.name)", "as": "\(kind)"])
        followOutputChoice()  // RT13 (a): the default may be it
    }

    /// HW1: the one rate a plugged device runs at, when it has one: a PipeWire node runs at the
    /// rate it was made with; a PulseAudio sink changes its rate to its streams' when it is idle
    /// (its default and alternate rates), so there the port type's rates stand (nil).
    private func fixedRate(of device: PulseDevice) -> Double? {
        state.withLock { $0.link.serverName?.contains("PipeWire") == true } ? device.sampleRate : nil
    }

    func unplug(_ name: String, because reason: String) {
        guard state.withLock({ $0.plugged.removeValue(forKey: name) }) != nil else { return }
        if let error = arbiter.report(.unplug(uid: name)) {
            logger.warning("cannot unplug a server device", metadata: ["device": "\(name)", "error": "\(error)"])
            return
        }
        logger.info("unplugged", metadata: ["device": "\(name)", "reason": "\(reason)"])
        followOutputChoice()  // RT13 (a): the default may have been it
    }
}
