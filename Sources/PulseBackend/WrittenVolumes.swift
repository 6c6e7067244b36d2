/// D1, D4: whose a stream's reported volume is. The server reports a stream after every change,
/// ours included, and may report one change more than once, late (asked before a later write,
/// answered after it): a volume we wrote lately is ours, whenever it is reported (PipeWire also
/// applies a write to the node a moment after answering it, so a report may show one of our
/// earlier volumes). Any other volume is the program's or the user's own — and if it was asked
/// before our latest write, that write was made without it and overrode it: it is written again
/// from the new own volume. Found by pulse-bench: a second, late report of a duck, taken for the
/// stream's own volume after its unduck, left it ducked for good.
///
/// "Our last few" are counted back from the report's own ask, not from now: a report asked long ago
/// (the queue behind under load) shows one of the writes made before it was asked, however many
/// came since — so a volume of ours is never taken for the user's because we wrote more since.
///
/// PipeWire keeps a stream's volume as a float and reports it back converted again: a duck
/// written as 19,162 was reported as 19,163 now and then (UnduckSoakTests, issue 60), taken for
/// the user's, and the unduck then "restored" the ducked volume. A report within `rounding` of
/// one of our volumes is ours (a user's change that small is 0.003% of the scale: inaudible).
struct WrittenVolumes: Equatable, CustomStringConvertible {
    /// How far a server's report of one of our volumes may be from what we wrote.
    static let rounding: UInt32 = 2
    /// How many of our writes before a report's ask it may show (PipeWire may lag a few behind).
    static let window = 4
    /// Our latest write's number (`PulseServer.setVolume(stream:…)`), 0: none yet.
    private var latest: UInt64 = 0
    /// Our last writes (volume and number), newest last.
    private var recent: [Write] = []

    enum Report: Equatable {
        /// One of our volumes.
        case ours
        /// The program's or the user's; `overridden`: our latest write came after it.
        case others(overridden: Bool)
    }

    private struct Write: Equatable {
        let volume: UInt32
        let number: UInt64
    }

    mutating func wrote(_ volume: UInt32, number: UInt64) {
        latest = number
        recent.append(Write(volume: volume, number: number))
        if recent.count > 4 * Self.window { recent.removeFirst() }
    }

    /// Whether `volume` is one of our last few.
    func contains(_ volume: UInt32) -> Bool { recent.suffix(Self.window).contains { Self.same($0.volume, volume) } }

    /// Whose a reported volume is, the report asked once `writesSeen` writes had been sent.
    func classify(_ volume: UInt32, writesSeen: UInt64) -> Report {
        let couldShow = recent.filter { $0.number <= writesSeen }.suffix(Self.window)
        guard couldShow.contains(where: { Self.same($0.volume, volume) }) else {
            return .others(overridden: writesSeen < latest)
        }
        return .ours
    }

    /// Our last writes, oldest first, as volume#number (the backend's debug log).
    var description: String { recent.map { "\($0.volume)#\($0.number)" }.joined(separator: " ") }

    /// A report of `written`, rounded on the way by the server.
    private static func same(_ written: UInt32, _ reported: UInt32) -> Bool {
        max(written, reported) - min(written, reported) <= rounding
    }
}
