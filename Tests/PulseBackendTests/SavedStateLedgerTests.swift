import Testing

@testable import PulseBackend

/// OA6 and D1, without a server: the restore group a stream's state is saved under, the ledger
/// of what may be saved of ours, and which reports are our own writes' echoes.
@Suite("OA6, D1: the saved states' ledger and our writes' echoes")
struct SavedStateLedgerTests {
    typealias State = PulseServer.SavedState

    @Test("OA6: the group is the program's chosen id, else its role, application id, name or media name")
    func restoreGroups() {
        let group = PulseServer.restoreGroup(of:)
        #expect(group(["media.role": "music", "application.name": "mpv"]) == "sink-input-by-media-role:music")
        #expect(
            group(["application.id": "org.gnome.Music", "application.name": "Music"])
                == "sink-input-by-application-id:org.gnome.Music")
        #expect(group(["application.name": "game", "media.name": "level 1"]) == "sink-input-by-application-name:game")
        #expect(group(["media.name": "tone"]) == "sink-input-by-media-name:tone")
        #expect(group(["module-stream-restore.id": "mine", "media.role": "music"]) == "mine")
        #expect(group(["application.process.binary": "pacat"]) == nil, "nothing is saved for it")
    }

    @Test("OA6: a group is kept while a stream carries ours, written back when one ends so, forgotten once the server has it")
    func ledger() {
        var ledger = SavedStateLedger()
        let own = State(group: "g", volume: 40_000, muted: false, channels: 2)
        let answer1 = ledger.carry(1, own: own)
        #expect(answer1, "kept")
        let answer2 = ledger.carry(2, own: State(group: "g", volume: 8_000, muted: false, channels: 2))
        #expect(!answer2, "the first carrier's own stays")
        #expect(ledger.own(of: "g")?.volume == 40_000)
        let answer3 = ledger.ended(1, group: "g")
        #expect(answer3 == own, "ended carrying ours: written back")
        let answer4 = ledger.written("g")
        #expect(!answer4, "stream 2 still carries ours: kept")
        let answer5 = ledger.restored(2, group: "g")
        #expect(answer5, "undone while playing: settling")
        let answer6 = ledger.ended(2, group: "g")
        #expect(answer6 == own, "ended while settling (the undoing may not have reached it): written back")
        let answer7 = ledger.written("g")
        #expect(answer7, "the server has it: forgotten")
        #expect(ledger.own(of: "g") == nil)
        let answer8 = ledger.ended(3, group: "g")
        #expect(answer8 == nil, "a stream that never carried ours: nothing to write")
    }

    @Test("OA6: settled streams free their group; the user's volume becomes the group's own; a lost server keeps the groups")
    func settlingAndTheUser() {
        var ledger = SavedStateLedger()
        _ = ledger.carry(1, own: State(group: "g", volume: 40_000, muted: false, channels: 2))
        let answer9 = ledger.ownVolume(30_000, of: "g")
        #expect(answer9)
        let answer10 = ledger.ownVolume(30_000, of: "h")
        #expect(!answer10, "a group not kept is not made")
        let answer11 = ledger.restored(1, group: "g")
        #expect(answer11)
        let answer12 = ledger.restored(1, group: "g")
        #expect(!answer12, "once")
        let answer13 = ledger.settled(1, group: "g")
        #expect(answer13, "settled: forgotten")
        _ = ledger.carry(5, own: State(group: "g", volume: 10, muted: false, channels: 1))
        ledger.serverLost()
        #expect(ledger.own(of: "g")?.volume == 10, "kept, to be written back at the next connection")
        let answer14 = ledger.ended(5, group: "g")
        #expect(answer14 == nil, "its streams went with the server")
        let answer15 = ledger.written("g")
        #expect(answer15)
    }

    @Test(
        "D1: one of our recent volumes is ours, however late reported; another is the user's, overridden if asked before our write"
    )
    func echoes() {
        var written = WrittenVolumes()
        #expect(written.classify(50_000, writesSeen: 0) == .others(overridden: false), "nothing written: its own")
        written.wrote(13_000, number: 7)
        #expect(written.classify(13_000, writesSeen: 7) == .ours, "our echo")
        #expect(written.classify(13_000, writesSeen: 9) == .ours, "reported again, late: still ours")
        #expect(written.classify(30_000, writesSeen: 7) == .others(overridden: false), "the user's, after our write")
        #expect(written.classify(30_000, writesSeen: 6) == .others(overridden: true), "the user's, overridden by our write")
        #expect(written.classify(13_002, writesSeen: 7) == .ours, "PipeWire's float volume, reported 2 off: ours")
        #expect(written.classify(12_997, writesSeen: 7) == .others(overridden: false), "3 off: the user's")
        written.wrote(65_536, number: 9)
        #expect(written.classify(13_000, writesSeen: 9) == .ours, "PipeWire still showing our previous write")
        for number in 10..<15 { written.wrote(UInt32(number), number: UInt64(number)) }
        #expect(written.classify(13_000, writesSeen: 20) == .others(overridden: false), "only the last few are remembered")
        #expect(
            written.classify(13_000, writesSeen: 7) == .ours,
            "a report asked long ago shows one of the few writes before its ask, however many came since")
    }
}
