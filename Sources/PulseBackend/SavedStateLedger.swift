/// OA6: the programs whose saved state on the server may hold a change of ours. The servers keep
/// each program's last volume and mute for its next stream, by restore group
/// (`PulseServer.restoreGroup(of:)`); while a stream of a group carries a duck or mute of ours,
/// the group's own state — the volume and mute its program or the user chose — is kept here:
///
/// - a stream of the group that starts meanwhile starts from it, not from the duck the server
///   may have given it (ducked once, not twice; D1);
/// - a stream that ends carrying a change of ours has the group's own written back as the saved
///   state (`PulseServer.writeSaved`), and the group is forgotten once the server has it;
/// - a stream that stops carrying one while it plays leaves the server saving its own state:
///   once it has settled (the undoing may not reach a stream that is ending: a stream that ends
///   meanwhile is written back too) and no stream of the group carries one, the group is forgotten.
///
/// The groups (not the streams) are what a restart after a crash writes back: the backend keeps
/// them in a file (`PulseBackend.ledgerPath`). Pure: the backend calls it on its queue.
struct SavedStateLedger: Equatable {
    /// Each group's own state, while a change of ours may be saved for it.
    private(set) var groups: [String: PulseServer.SavedState] = [:]
    /// The streams of each group carrying a change of ours now (ended streams are not).
    private var carriers: [String: Set<UInt32>] = [:]
    /// The streams of each group whose change of ours was just undone, until it settles.
    private var settling: [String: Set<UInt32>] = [:]

    init(groups: [PulseServer.SavedState] = []) {
        for state in groups { self.groups[state.group] = state }
    }

    /// The state a group's streams start from, while one is kept.
    func own(of group: String) -> PulseServer.SavedState? { groups[group] }

    /// A stream now carries a change of ours: its group's own state is `own`, unless one is kept
    /// already (the first carrier's own stays until the user changes it). Whether `groups` changed.
    mutating func carry(_ stream: UInt32, own: PulseServer.SavedState) -> Bool {
        carriers[own.group, default: []].insert(stream)
        guard groups[own.group] == nil else { return false }
        groups[own.group] = own
        return true
    }

    /// A stream playing carries no change of ours any more (undone on the server, which saves it
    /// as it is): settling until `settled`. Whether it carried one.
    mutating func restored(_ stream: UInt32, group: String) -> Bool {
        guard carriers[group]?.remove(stream) != nil else { return false }
        if carriers[group]!.isEmpty { carriers[group] = nil }
        settling[group, default: []].insert(stream)
        return true
    }

    /// A stream's undoing has settled: the group is forgotten once none of its streams carries a
    /// change of ours or settles. Whether `groups` changed.
    mutating func settled(_ stream: UInt32, group: String) -> Bool {
        guard settling[group]?.remove(stream) != nil else { return false }
        if settling[group]!.isEmpty { settling[group] = nil }
        return forgetIfFree(group)
    }

    /// A stream ended: the state to write back as its group's saved one if it carried a change of
    /// ours or was settling (the group stays kept until the server has it: `written(_:)`).
    mutating func ended(_ stream: UInt32, group: String) -> PulseServer.SavedState? {
        let carried = carriers[group]?.remove(stream) != nil
        let settled = settling[group]?.remove(stream) != nil
        if carriers[group]?.isEmpty == true { carriers[group] = nil }
        if settling[group]?.isEmpty == true { settling[group] = nil }
        return carried || settled ? groups[group] : nil
    }

    /// The server has a group's own state as its saved one: forgotten unless a stream of it
    /// carries a change of ours again. Whether `groups` changed.
    mutating func written(_ group: String) -> Bool { forgetIfFree(group) }

    private mutating func forgetIfFree(_ group: String) -> Bool {
        guard carriers[group] == nil, settling[group] == nil else { return false }
        return groups.removeValue(forKey: group) != nil
    }

    /// The user (or the program) set a volume of a group's stream: its own from now on, also for
    /// the saved state. Whether `groups` changed.
    mutating func ownVolume(_ volume: UInt32, of group: String) -> Bool {
        guard groups[group] != nil, groups[group]!.volume != volume else { return false }
        groups[group]!.volume = volume
        return true
    }

    /// The server went away: its streams with it (their groups stay, to be written back).
    mutating func serverLost() {
        carriers = [:]
        settling = [:]
    }
}
