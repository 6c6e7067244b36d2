/// RT13: the moves of one stream we asked the server for and have not seen land. A report of the
/// stream on one of those devices is our move, never the user's. Moves are not transactions: one
/// asked before the user's own may land after it (the route changed a moment before the user
/// moved the stream), so a move by hand leaves the pending ones pending — when ours lands it is
/// seen as ours, and the route (the user's choice now) puts the stream back where the user put it.
/// A move not seen within `patience` is forgotten: it failed (its device went away) or landed
/// unseen, and a later report on that device is the user's again.
struct MovesAsked: Equatable, CustomStringConvertible {
    /// How long a move of ours may take to be seen: a round trip on PulseAudio (the stream is asked
    /// for again right after a move), WirePlumber's relink plus the once-a-second poll on PipeWire.
    static let patience: UInt64 = 2_500_000_000

    private var pending: [Move] = []

    private struct Move: Equatable {
        var device: String
        var askedAt: UInt64
    }

    /// The device of the latest move asked, if any is pending.
    var last: String? { pending.last?.device }

    var isEmpty: Bool { pending.isEmpty }

    /// Whether a pending move is to another device than `device`.
    func hasMove(elsewhereThan device: String) -> Bool { pending.contains { $0.device != device } }

    /// Whether every pending move is to `device` (none pending: true).
    func allTo(_ device: String) -> Bool { pending.allSatisfy { $0.device == device } }

    mutating func asked(_ device: String, at now: UInt64) { pending.append(Move(device: device, askedAt: now)) }

    /// The stream was reported on `device` at `now`: whether a move of ours put it there (then
    /// that move and every earlier one are seen).
    mutating func seen(on device: String, at now: UInt64) -> Bool {
        pending.removeAll { now &- $0.askedAt > Self.patience }
        guard let ours = pending.firstIndex(where: { $0.device == device }) else { return false }
        pending.removeFirst(ours + 1)
        return true
    }

    mutating func forget() { pending = [] }

    var description: String { "\(pending.map(\.device))" }
}
