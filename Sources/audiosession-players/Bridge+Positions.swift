import AudioSessionClient
import AudioSessionModel
import AudioSessionPlayers
import AudioSessionWire
import CSystemd
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// Where a player is (PL5): its `Position` read before a pause, before a play, and now.
extension Bridge {
    /// Now on the monotonic clock, in nanoseconds (PL5's times).
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// PL5: where the player is, read just before it is paused — the Pause's answer, and any
    /// `Seeked` it announces itself with, come after this one's (the player answers in order).
    func readPosition(_ id: PlayerMachine.PlayerID, of name: String) {
        bus?.callLater(
            name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"]
        ) { [weak self] reply, _ in
            guard let self, let reply, sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0,
                let position = reply.readInt64()
            else { return }  // no position: a later Seeked is taken as a seek
            self.carryOut(self.feed(.position(id, position, at: Self.monotonicNanoseconds())))
        }
    }

    /// PL5 (revision 6): where the player is as an interruption ends, before it is told Play (a
    /// seek need not be announced); nil fed back when it has no Position or does not answer.
    func readPositionBeforePlay(_ id: PlayerMachine.PlayerID, of name: String) {
        bus?.callLater(
            name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"]
        ) { [weak self] reply, _ in
            guard let self else { return }
            var position: Int64?
            if let reply, sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0 {
                position = reply.readInt64()
            }
            self.carryOut(self.feed(.positionBeforePlay(id, position, at: Self.monotonicNanoseconds())))
        }
    }

    /// A player's `Position` now (µs), waited for 1 s at most; nil when it has none.
    func readPositionNow(of name: String) -> Int64? {
        guard let bus,
            let reply = try? bus.call(
                name, Self.objectPath, "org.freedesktop.DBus.Properties", "Get", [Self.playerInterface, "Position"])
        else { return nil }
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "x") > 0 else { return nil }
        return reply.readInt64()
    }
}
