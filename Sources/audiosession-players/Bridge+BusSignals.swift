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

// What the session bus tells the bridge: names coming and going, properties changing, seeks
// (SPEC §16, PL1, PL3, PL5), each fed into the machine.
extension Bridge {
    // MARK: What the bus tells

    func nameOwnerChanged(_ message: OpaquePointer) -> Int32 {
        guard let name = message.readString(), let old = message.readString(), let new = message.readString() else { return 0 }
        if Self.isPlayer(name) {
            notReady[name] = nil
            if !new.isEmpty { discover(name) }
            if !old.isEmpty, let id = player(of: old) {
                names[id]?.remove(name)
                if names[id]?.isEmpty == true { vanished(id) }
            }
        } else if name.hasPrefix(":"), new.isEmpty {
            if names[name] != nil {
                vanished(name)  // the player's connection closed (its process ended)
            } else {
                aliases[name] = nil
            }
        }
        return 0
    }

    /// The player a connection speaks for: its own, or the program's first (`aliases`).
    func player(of connection: String) -> PlayerMachine.PlayerID? {
        aliases[connection] ?? (names[connection] != nil ? connection : nil)
    }

    func vanished(_ id: String) {
        names[id] = nil
        programs[id] = nil
        tracks[id] = nil
        aliases = aliases.filter { $0.value != id }
        carryOut(feed(.vanished(id)))
    }

    func propertiesChanged(_ message: OpaquePointer) -> Int32 {
        guard let connection = message.readSenderID() else { return 0 }
        // PL6: a player not ready yet announcing its properties has exported its object: asked now.
        for (name, entry) in notReady where entry.owner == connection { discover(name) }
        guard let sender = player(of: connection), let interface = message.readString(),
            interface == Self.playerInterface
        else { return 0 }
        var inputs: [PlayerMachine.Input] = []
        let wellFormed = message.readDictionary { key, signature in
            switch (key, signature) {
            case ("PlaybackStatus", "s"):
                if let text = message.readString(), let status = PlayerMachine.Status(rawValue: text) {
                    inputs.append(.status(sender, status))
                } else {
                    inputs.append(.fault(sender, "a PlaybackStatus that is not Playing, Paused or Stopped"))
                }
            case ("PlaybackStatus", _):
                inputs.append(.fault(sender, "a PlaybackStatus of type \(signature)"))
            case ("Metadata", "a{sv}"):
                if let track = Self.trackID(message), tracks.updateValue(track, forKey: sender) != track {
                    inputs.append(.newTrack(sender))
                }
            case ("CanPause", "b"):  // PL3 (revision 5): what it can do now
                inputs.append(.abilities(sender, canPause: message.readBool(), canControl: nil))
            case ("CanControl", "b"):
                inputs.append(.abilities(sender, canPause: nil, canControl: message.readBool()))
            default:
                break
            }
        }
        if !wellFormed { inputs.append(.fault(sender, "malformed PropertiesChanged")) }
        for input in inputs { carryOut(feed(input)) }
        return 0
    }

    func seeked(_ message: OpaquePointer) -> Int32 {
        guard let connection = message.readSenderID(), let sender = player(of: connection) else { return 0 }
        // PL5: a Seeked without a position is taken as a seek (far from anywhere the player was).
        carryOut(feed(.seeked(sender, position: message.readInt64() ?? .min / 2, at: Self.monotonicNanoseconds())))
        return 0
    }

    /// `mpris:trackid` of a Metadata dictionary (positioned on it).
    static func trackID(_ message: OpaquePointer) -> String? {
        var track: String?
        _ = message.readDictionary { key, signature in
            if key == "mpris:trackid", signature == "o" || signature == "s" { track = message.readString(Character(signature)) }
        }
        return track
    }
}
