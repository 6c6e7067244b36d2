/// SPEC §18 (CL1, CL2, CL5): which programs that never heard of us are in a call, decided from
/// what the sound server says of their streams — a pure state machine. The backend's facts go in
/// (a playback or capture stream of a program present or gone, the time passing); what the
/// runtime must do comes out as `Action`s: a call begins, a call ends. No clock, no timers: the
/// caller passes the time and asks `nextDeadline` when to come back.
///
/// A program is in a call once it has recorded from a real input (never a monitor, CL1) and
/// played, both at once, for `afterMs`; the call ends when it has recorded nothing for
/// `hangoverMs` (browsers close and reopen their streams). A program that only records, or
/// that records and plays for less than `afterMs` at a time, is never in a call.
public struct CallDetector: Sendable {
    /// A program: the process its streams are taken to (`PulseBackend.program(of:)`).
    public typealias Program = Int32

    /// A stream as the server numbers it (playback and capture numbers are separate).
    public struct StreamID: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var index: UInt32
        public var isCapture: Bool

        public init(index: UInt32, isCapture: Bool) {
            self.index = index
            self.isCapture = isCapture
        }

        public static func < (a: Self, b: Self) -> Bool { (a.isCapture ? 1 : 0, a.index) < (b.isCapture ? 1 : 0, b.index) }

        public var description: String { isCapture ? "capture \(index)" : "playback \(index)" }
    }

    /// What the server says of a program: its `application.name` and binary.
    public struct Facts: Hashable, Sendable {
        public var name: String
        public var binary: String?

        public init(name: String, binary: String? = nil) {
            self.name = name
            self.binary = binary
        }
    }

    public enum Action: Hashable, Sendable {
        /// CL2: the program is in a call from now on.
        case begin(Program, Facts)
        /// CL5: its call ended (or its last stream went away).
        case end(Program)
        /// CL4 (revision 7): a program not in a call has recorded nothing for `hangoverMs`: its
        /// playback may be other audio again (judge its streams again).
        case recordingLapsed(Program)
    }

    struct Activity: Sendable {
        var facts: Facts
        var playing: Set<UInt32> = []
        var capturing: Set<UInt32> = []
        /// Since when it has recorded and played at once (nil: not both now).
        var bothSince: UInt64?
        /// In a call: since when it has recorded nothing (nil: recording now).
        var silentSince: UInt64?
        var inCall = false
        /// CL4 (revision 7): when its last capture closed, not in a call — for `hangoverMs` after
        /// it, it still counts as recording (a softphone closes and reopens its capture while it
        /// dials: its playback is not muted again in between).
        var lastCapture: UInt64?

        var streams: [StreamID] {
            (playing.map { StreamID(index: $0, isCapture: false) } + capturing.map { StreamID(index: $0, isCapture: true) })
                .sorted()
        }
    }

    /// CL6's times, in milliseconds.
    public var afterMs: UInt64
    public var hangoverMs: UInt64
    private(set) var programs: [Program: Activity] = [:]
    /// Which program each stream is of, to forget it when it goes.
    private var owners: [StreamID: Program] = [:]

    public init(afterMs: UInt64 = 500, hangoverMs: UInt64 = 2000) {
        self.afterMs = afterMs
        self.hangoverMs = hangoverMs
    }

    /// A stream of `program` is present (listed, new or changed) at `now` (ns). A capture of a
    /// monitor is no recording (CL1): pass `isMonitor` and it is left out.
    public mutating func present(
        _ stream: StreamID, of program: Program, _ facts: Facts, isMonitor: Bool = false, at now: UInt64
    ) -> [Action] {
        var actions: [Action] = []
        if let previous = owners[stream], previous != program || (stream.isCapture && isMonitor) {
            actions += removed(stream, at: now)  // it changed hands, or moved to a monitor
        }
        if stream.isCapture && isMonitor { return actions + advance(to: now) }
        owners[stream] = program
        var activity = programs[program] ?? Activity(facts: facts)
        if stream.isCapture {
            activity.capturing.insert(stream.index)
        } else {
            // CL3: the call is named as its playback names it (Chromium's capture says "Chromium input").
            if !activity.inCall { activity.facts = facts }
            activity.playing.insert(stream.index)
        }
        programs[program] = activity
        return actions + advance(to: now)
    }

    /// A stream went away at `now` (ns).
    public mutating func removed(_ stream: StreamID, at now: UInt64) -> [Action] {
        guard let program = owners.removeValue(forKey: stream), var activity = programs[program] else { return advance(to: now) }
        if stream.isCapture { activity.capturing.remove(stream.index) } else { activity.playing.remove(stream.index) }
        if stream.isCapture && activity.capturing.isEmpty { activity.lastCapture = now }
        programs[program] = activity
        return advance(to: now)
    }

    /// Every program's state at `now` (ns): the calls that begin and end. Idempotent.
    public mutating func advance(to now: UInt64) -> [Action] {
        var actions: [Action] = []
        for program in programs.keys.sorted() {
            guard var activity = programs[program] else { continue }
            let recording = !activity.capturing.isEmpty
            if recording || activity.inCall {
                activity.lastCapture = nil
            } else if let last = activity.lastCapture, now >= last + hangoverMs * 1_000_000 {
                activity.lastCapture = nil
                actions.append(.recordingLapsed(program))
            }
            if activity.inCall {
                // CL5: the call lasts while it records, and `hangoverMs` after its last recording.
                if recording {
                    activity.silentSince = nil
                } else {
                    let since = activity.silentSince ?? now
                    activity.silentSince = since
                    if now >= since + hangoverMs * 1_000_000 {
                        activity.inCall = false
                        activity.silentSince = nil
                        activity.bothSince = nil
                        actions.append(.end(program))
                    }
                }
            } else if recording && !activity.playing.isEmpty {
                // CL2: recording and playing at once for `afterMs`.
                let since = activity.bothSince ?? now
                activity.bothSince = since
                if now >= since + afterMs * 1_000_000 {
                    activity.inCall = true
                    actions.append(.begin(program, activity.facts))
                }
            } else {
                activity.bothSince = nil
            }
            if !activity.inCall && activity.playing.isEmpty && activity.capturing.isEmpty {
                programs[program] = nil  // nothing of it is left to follow (no playback to keep unmuted)
            } else {
                programs[program] = activity
            }
        }
        return actions
    }

    /// When `advance` may next have something to say (ns), nil for never (nothing pending).
    public var nextDeadline: UInt64? {
        programs.values.flatMap { activity -> [UInt64] in
            if activity.inCall { return activity.silentSince.map { [$0 + hangoverMs * 1_000_000] } ?? [] }
            return [
                activity.bothSince.map { $0 + afterMs * 1_000_000 }, activity.lastCapture.map { $0 + hangoverMs * 1_000_000 },
            ]
            .compactMap { $0 }
        }.min()
    }

    /// Whether a program is in a call now.
    public func isInCall(_ program: Program) -> Bool { programs[program]?.inCall == true }

    /// CL4: whether `program` records from a real input now (a monitor's capture is none) — or,
    /// (revision 7) not in a call, did less than `hangoverMs` before `now`: once it records, its
    /// playback is not muted as other audio again while it goes on recording now and then.
    public func isRecording(_ program: Program, at now: UInt64) -> Bool {
        guard let activity = programs[program] else { return false }
        if !activity.capturing.isEmpty { return true }
        return activity.lastCapture.map { now < $0 + hangoverMs * 1_000_000 } ?? false
    }

    /// The streams of a program that is followed (CL7: a call's streams).
    public func streams(of program: Program) -> [StreamID] { programs[program]?.streams ?? [] }

    /// Every program in a call now.
    public var calls: [Program] { programs.filter { $0.value.inCall }.map(\.key).sorted() }
}
