/// D1, D4: whose a stream's reported volume is. The server reports a stream after every change,
/// ours included, and may report one change more than once, late (asked before a later write,
/// answered after it): a volume we wrote lately is ours, whenever it is reported (PipeWire also
/// applies a write to the node a moment after answering it, so a report may show one of our
/// earlier volumes). Any other volume is the program's or the user's own — and if it was asked
/// before our latest write, that write was made without it and overrode it: it is written again
/// from the new own volume. Found by pulse-bench: a second, late report of a duck, taken for the
/// stream's own volume after its unduck, left it ducked for good.
struct WrittenVolumes: Equatable {
    /// Our latest write's number (`PulseServer.setVolume(stream:…)`), 0: none yet.
    private var latest: UInt64 = 0
    /// Our last few volumes, newest last.
    private var recent: [UInt32] = []

    enum Report: Equatable {
        /// One of our volumes.
        case ours
        /// The program's or the user's; `overridden`: our latest write came after it.
        case others(overridden: Bool)
    }

    mutating func wrote(_ volume: UInt32, number: UInt64) {
        latest = number
        recent.append(volume)
        if recent.count > 4 { recent.removeFirst() }
    }

    /// Whether `volume` is one of our last few.
    func contains(_ volume: UInt32) -> Bool { recent.contains(volume) }

    /// Whose a reported volume is, the report asked once `writesSeen` writes had been sent.
    func classify(_ volume: UInt32, writesSeen: UInt64) -> Report {
        recent.contains(volume) ? .ours : .others(overridden: writesSeen < latest)
    }
}
