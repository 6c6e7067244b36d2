import Dispatch
import FoundationEssentials
import Logging

/// OA6: nothing we write outlives us in the server's saved per-program state. The ledger
/// (`SavedStateLedger`) keeps each program's own state while a stream of it carries a duck or
/// mute of ours; a stream ending so has its program's own written back at once; the daemon
/// stopping undoes its changes on the streams still playing (`undoOurChanges`); and the ledger's
/// groups are kept in a file, so a start after a crash (or after the server's return, MS3)
/// writes back whatever the last run may have left saved.
extension PulseBackend {
    /// On the queue: a foreign stream's change of ours came or went: the ledger follows.
    func followLedger(_ index: UInt32) {
        guard let stream = state.withLock({ $0.streams[index] }), let group = stream.group else { return }
        followLedger(
            index, group: group,
            carrying: stream.carriesOurs
                ? .init(group: group, volume: stream.ownVolume, muted: stream.ownMuted, channels: stream.channels) : nil)
    }

    /// A stream (a foreign or an own one: the server's indexes of both are one) carries a change
    /// of ours with its program's `own` state, or none any more: then it settles a second later.
    func followLedger(_ index: UInt32, group: String, carrying own: PulseServer.SavedState?) {
        if let own { return changeLedger { $0.carry(index, own: own) } }
        guard state.withLock({ $0.ledger.restored(index, group: group) }) else { return }
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [self] in changeLedger { $0.settled(index, group: group) } }
    }

    /// On the queue: a stream of `group` ended carrying a change of ours (or just undone): its program's own is
    /// written back as the saved state at once, and again a second later — WirePlumber may save
    /// the stream's last state after the first (its node's last change reaches it late) — and the
    /// group is forgotten once the server has the second. Until then a stream of the program that
    /// starts from a mute of ours is given its own (`foreignStreamChanged`).
    func streamEnded(_ index: UInt32, group: String) {
        guard let own = state.withLock({ $0.ledger.ended(index, group: group) }),
            let server = server.withLock({ $0 })
        else { return }
        logger.debug(
            "a stream ended ducked or muted: its program's own state written back (OA6)", metadata: ["group": "\(group)"])
        server.writeSaved([own])
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [self] in
            guard let own = state.withLock({ $0.ledger.own(of: group) }), let server = self.server.withLock({ $0 }) else {
                return
            }
            let (queue, relay) = (queue, relay)
            server.writeSaved([own]) {
                queue.async { relay.target.withLock { $0 }?.changeLedger { $0.written(group) } }
            }
        }
    }

    /// On the queue, just connected: what the ledger holds (a crashed run's, or one from before
    /// the server's loss) is written back before the streams are judged; each group is forgotten
    /// after the listing's streams have taken their own from it.
    func writeBackLedger(to server: PulseServer) {
        let groups = state.withLock { Array($0.ledger.groups.values) }
        guard !groups.isEmpty else { return }
        server.writeSaved(groups, wait: true)
        logger.info(
            "saved states of programs our last run left ducked or muted written back (OA6)",
            metadata: ["programs": "\(groups.map(\.group).sorted().joined(separator: ", "))"])
        queue.async { [self] in changeLedger { ledger in groups.reduce(false) { ledger.written($1.group) || $0 } } }
    }

    /// Changes the ledger; when its groups changed, they are saved to its file (coalesced, off the queue).
    func changeLedger(_ change: (inout SavedStateLedger) -> Bool) {
        guard state.withLock({ change(&$0.ledger) }), ledgerPath != nil else { return }
        guard !ledgerSavePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            ledgerSavePending.store(false, ordering: .releasing)
            saveLedger()
        }
    }

    /// Writes the ledger's groups to its file (replaced whole: a crash leaves the old or the new);
    /// none: the file is removed.
    func saveLedger() {
        guard let path = ledgerPath else { return }
        let groups = state.withLock { $0.ledger.groups.values.sorted { $0.group < $1.group } }
        guard !groups.isEmpty else {
            _ = try? FileManager.default.removeItem(atPath: path)
            return
        }
        do {
            try JSONEncoder().encode(groups).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            logger.warning("cannot keep the programs' own states (OA6)", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }

    /// The groups a previous run left in the ledger's file (none if there is none; a file that
    /// cannot be read is said and set aside).
    static func loadLedger(from path: String?, logger: Logger) -> SavedStateLedger {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return SavedStateLedger() }
        do {
            return SavedStateLedger(groups: try JSONDecoder().decode([PulseServer.SavedState].self, from: data))
        } catch {
            logger.warning(
                "the programs' own states kept by the last run cannot be read (OA6)",
                metadata: ["file": "\(path)", "error": "\(error)"])
            return SavedStateLedger()
        }
    }
}
