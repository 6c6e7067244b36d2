import Testing

@testable import PulseBackend

/// RT13, without a server: which reported moves of a stream are ours. A CI run on PipeWire found
/// a move of ours asked a moment before the user's own landing after it; with the route changed
/// back before ours was seen, the earlier rule ("where the route says: pending moves are moot")
/// dropped it, and its landing was taken for the user's choice.
@Suite("RT13: our moves are never the user's")
struct MovesAskedTests {
    let second: UInt64 = 1_000_000_000

    @Test("RT13: a report on a device we asked for is ours, with every move asked before it")
    func seenInOrder() {
        var moves = MovesAsked()
        moves.asked("hdmi", at: 0)
        moves.asked("speaker", at: 1)
        #expect(moves.last == "speaker")
        #expect(moves.hasMove(elsewhereThan: "speaker"), "the move to HDMI is still on its way")
        #expect(!moves.allTo("speaker"))
        let hdmi = moves.seen(on: "hdmi", at: 2)
        #expect(hdmi, "ours")
        #expect(moves.allTo("speaker") && !moves.hasMove(elsewhereThan: "speaker"))
        let usb = moves.seen(on: "usb", at: 3)
        #expect(!usb, "never asked: the user's")
        let speaker = moves.seen(on: "speaker", at: 4)
        #expect(speaker)
        #expect(moves.isEmpty)
        let again = moves.seen(on: "speaker", at: 5)
        #expect(!again, "seen once: a later report there is no move of ours")
    }

    @Test("RT13: a later move seen covers the earlier ones (the server showed only where they ended)")
    func coalesced() {
        var moves = MovesAsked()
        moves.asked("hdmi", at: 0)
        moves.asked("speaker", at: 1)
        let speaker = moves.seen(on: "speaker", at: 2)
        #expect(speaker)
        #expect(moves.isEmpty)
        let hdmi = moves.seen(on: "hdmi", at: 3)
        #expect(!hdmi, "HDMI now: the user's")
    }

    @Test("RT13: a move of ours not seen within its patience is forgotten; a report there is the user's")
    func patience() {
        var moves = MovesAsked()
        moves.asked("hdmi", at: 0)
        let speaker = moves.seen(on: "speaker", at: second)
        #expect(!speaker, "elsewhere: the user's, ours still on its way")
        #expect(moves.last == "hdmi")
        let hdmi = moves.seen(on: "hdmi", at: MovesAsked.patience + second)
        #expect(!hdmi, "failed, or landed unseen long ago")
        #expect(moves.isEmpty)
    }

    @Test("RT13: forgetting drops every pending move")
    func forget() {
        var moves = MovesAsked()
        moves.asked("hdmi", at: 0)
        moves.forget()
        #expect(moves.isEmpty && moves.last == nil && moves.allTo("anything"))
    }
}
