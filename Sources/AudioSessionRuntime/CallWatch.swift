import AudioSessionModel
import Dispatch
import Logging
import Synchronization

/// SPEC §18 in the runtime: the backend reports what the sound server says of every stream of a
/// program that never heard of us — playback and capture, its program, a capture of a monitor
/// or of a real input (CL1) — and the runtime decides who is in a call (`CallDetector`, CL2, CL5;
/// its times are the timers here, never sleeps in the backend) and carries it out: a call is an
/// app of its own whose session the runtime hosts (`call.` + binary, CL3), or a system call, or
/// nothing (`ignore`, CL6). The backend asks `owner(of:)` whose a program's streams are (CL4:
/// a call's come first) and is told, through `onChange`, to judge every stream again when a call
/// begins or ends.
public final class CallWatch: Sendable {
    /// Whose a program's streams are while it is in a call.
    public enum Owner: Hashable, Sendable {
        /// The app of the session hosted for the call (CL3): its own streams, never muted as
        /// other audio or as a player's (CL4).
        case session(AppID)
        /// A system call (CL6 `system: call`): its streams are left as they are (never muted).
        case systemCall
    }

    struct Call: Sendable {
        var owner: Owner?
        var facts: CallDetector.Facts
        var origin: String
    }

    struct State: Sendable {
        var detector = CallDetector()
        /// The programs in a call, with what the call is (nil owner: `ignore`).
        var calls: [CallDetector.Program: Call] = [:]
        /// The time the pending timer fires (ns), if one is pending.
        var timerAt: UInt64?
        /// Programs whose call is being set up (hosted) right now.
        var beginning: Set<CallDetector.Program> = []
    }

    let arbiter: Arbiter
    let logger: Logger
    let state = Mutex(State())
    let queue = DispatchQueue(label: "audiosession.calls")
    /// The backend judges every stream again (a call began or ended).
    let onChange: @Sendable () -> Void
    /// The clock (ns, monotonic); injected for tests.
    let now: @Sendable () -> UInt64

    public init(
        arbiter: Arbiter, logger: Logger, now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        onChange: @escaping @Sendable () -> Void
    ) {
        self.arbiter = arbiter
        self.logger = logger
        self.now = now
        self.onChange = onChange
    }

    /// CL1: a playback or capture stream of `program` is present (listed, new, changed).
    public func present(
        _ stream: CallDetector.StreamID, of program: CallDetector.Program, _ facts: CallDetector.Facts, isMonitor: Bool
    ) {
        logger.trace("stream present", metadata: ["stream": "\(stream)", "program": "\(program)", "monitor": "\(isMonitor)"])
        step { $0.present(stream, of: program, facts, isMonitor: isMonitor, at: $1) }
    }

    /// A stream went away.
    public func removed(_ stream: CallDetector.StreamID) {
        logger.trace("stream removed", metadata: ["stream": "\(stream)"])
        step { $0.removed(stream, at: $1) }
    }

    /// MS3: the sound server went away: every call ends now (nothing stays muted or interrupted).
    public func serverLost() {
        let ended = state.withLock { state -> [CallDetector.Action] in
            let calls = state.detector.calls
            state.detector = CallDetector(afterMs: state.detector.afterMs, hangoverMs: state.detector.hangoverMs)
            return calls.map { .end($0) }
        }
        carryOut(ended, reason: "the sound server went away (MS3)")
    }

    /// CL4: whose the streams of `program` are, if it is in a call.
    public func owner(of program: CallDetector.Program) -> Owner? { state.withLock { $0.calls[program]?.owner } }

    /// CL4: whether `program` is in a call (its streams never to be muted as another's), or its
    /// call is beginning — its streams change hands a moment later.
    public func claims(_ program: CallDetector.Program) -> Bool {
        state.withLock { $0.beginning.contains(program) || $0.calls[program]?.owner != nil }
    }

    /// CL4 (revision 6): whether `program` records from a real input now — from that moment its
    /// playback is never muted as other audio, before `after-ms` has made it a call too.
    public func records(_ program: CallDetector.Program) -> Bool {
        let time = now()
        return state.withLock { $0.detector.isRecording(program, at: time) }
    }

    /// CL7: the programs in a call, with their streams (for tests and status).
    public var calls: [(program: CallDetector.Program, owner: Owner?, streams: [CallDetector.StreamID])] {
        state.withLock { state in
            state.calls.keys.sorted().map { ($0, state.calls[$0]?.owner, state.detector.streams(of: $0)) }
        }
    }

    /// One fact in, under the lock, with CL6's times as configured now; the actions carried out
    /// off it, and the timer set for the next deadline.
    private func step(_ change: (inout CallDetector, UInt64) -> [CallDetector.Action]) {
        let policy = arbiter.rules.policy.calls
        let time = now()
        let actions = state.withLock { state -> [CallDetector.Action] in
            state.detector.afterMs = policy.afterMs
            state.detector.hangoverMs = policy.hangoverMs
            let actions = change(&state.detector, time)
            return policy.detect ? actions : actions.filter { if case .begin = $0 { false } else { true } }
        }
        carryOut(actions, reason: nil)
        if !state.withLock({ $0.calls.isEmpty }) { refreshStreams() }
        schedule()
    }

    /// The timer: `advance` at the detector's next deadline (one timer at a time, the earliest).
    private func schedule() {
        let deadline: UInt64? = state.withLock { state in
            guard let next = state.detector.nextDeadline, state.timerAt.map({ next < $0 }) ?? true else { return nil }
            state.timerAt = next
            return next
        }
        guard let deadline else { return }
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline + 1_000_000)) { [weak self] in
            guard let self else { return }
            state.withLock { if $0.timerAt == deadline { $0.timerAt = nil } }
            step { detector, now in detector.advance(to: now) }
        }
    }

    private func carryOut(_ actions: [CallDetector.Action], reason: String?) {
        guard !actions.isEmpty else { return }
        for action in actions {
            switch action {
            case .begin(let program, let facts): begin(program, facts)
            case .end(let program): end(program, reason: reason)
            case .recordingLapsed: break  // judged again below (CL4)
            }
        }
        onChange()  // CL4: the programs' streams change hands
    }

    /// CL3, CL6: the program is in a call — hosted, a system call, or ignored as the policy says.
    private func begin(_ program: CallDetector.Program, _ facts: CallDetector.Facts) {
        let policy = arbiter.rules.policy.calls
        let (action, origin) = policy.action(for: StreamFacts(applicationName: facts.name, binary: facts.binary))
        let streams = state.withLock { state in
            state.beginning.insert(program)
            return state.detector.streams(of: program)
        }
        var owner: Owner?
        switch action {
        case .ignore:
            logger.info(
                "a program records and plays; the policy ignores it (CL6)",
                metadata: ["program": "\(facts.name)", "pid": "\(program)", "policy": "\(origin)"])
        case .systemCall:
            // POL5: in the system trust mode, only when the configuration allows role phone.
            if arbiter.rules.trust.allowsSystemSession(forRole: "phone") {
                if let error = arbiter.report(.systemSession(.call, begin: true)) {
                    logger.warning("cannot begin a system call for a program", metadata: ["error": "\(error)"])
                }
                owner = .systemCall
            } else {
                logger.notice(
                    "a program's call is not a system call: trust.system-session-roles does not list phone (POL5)",
                    metadata: ["program": "\(facts.name)", "pid": "\(program)"])
            }
        case .session(let intent):
            let id = Self.appID(binary: facts.binary, program: program)
            if let app = arbiter.hostSession(id, intent: intent, origin: origin, processID: program, kind: .call(facts.name)) {
                owner = .session(app)
            }
        }
        state.withLock { state in
            state.calls[program] = Call(owner: owner, facts: facts, origin: origin)
            state.beginning.remove(program)
        }
        guard action != .ignore else { return }  // logged above, once
        logger.info(
            "call began (CL2)",
            metadata: [
                "program": "\(facts.name)", "pid": "\(program)", "call": "\(owner.map { "\($0)" } ?? "none")",
                "streams": "\(streams.map(\.description).joined(separator: ", "))", "policy": "\(origin)",
            ])
    }

    /// CL5: the call ended: its session departs with notify-others (what it interrupted resumes).
    /// (revision 7) Two calls at once: a call still going on that this one interrupted is the
    /// daemon's to take back, as a call app would — it is active again first, in the step before
    /// this one departs, so what the calls interrupted (the music) stays interrupted until the last
    /// call ends, and never plays in between.
    private func end(_ program: CallDetector.Program, reason: String?) {
        let (ended, stillInACall) = state.withLock { state -> (Call?, [AppID]) in
            let ended = state.calls.removeValue(forKey: program)
            let others = state.calls.values.compactMap { call -> AppID? in
                if case .session(let app) = call.owner { return app }
                return nil
            }
            return (ended, others.sorted { $0.rawValue < $1.rawValue })
        }
        guard let call = ended else { return }
        switch call.owner {
        case .session(let app):
            for other in stillInACall where arbiter.status(of: other)?.isActive == false {
                arbiter.startHostedOutput(other)
                logger.info(
                    "a call goes on after another's end: active again (CL5)", metadata: ["call": "\(other)", "ending": "\(app)"])
            }
            arbiter.endHostedSession(app)
        case .systemCall:
            let others = state.withLock { $0.calls.values.contains { $0.owner == .systemCall } }
            if !others { _ = arbiter.report(.systemSession(.call, begin: false)) }
        case nil: return  // ignored (CL6): it never began
        }
        logger.info(
            "call ended (CL5)",
            metadata: [
                "program": "\(call.facts.name)", "pid": "\(program)",
                "reason": "\(reason ?? "nothing recorded for policy.calls.hangover-ms")",
            ])
    }

    /// CL7: each hosted call's streams, as status shows them.
    private func refreshStreams() {
        let hosted = state.withLock { state in
            state.calls.compactMap { program, call -> (AppID, [String])? in
                guard case .session(let app) = call.owner else { return nil }
                return (app, state.detector.streams(of: program).map(\.description))
            }
        }
        for (app, streams) in hosted { arbiter.setHostedStreams(app, streams) }
    }

    /// CL3: `call.` + the program's binary, reduced to an app id's characters (T3).
    static func appID(binary: String?, program: CallDetector.Program) -> AppID {
        let kept = String((binary ?? "").unicodeScalars.prefix(64).map { AppID.isAllowed($0) ? Character($0) : "_" })
        return AppID("call.\(kept.isEmpty ? "pid\(program)" : kept)")
    }
}
