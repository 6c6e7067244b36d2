import AudioSessionPlayers
import FoundationEssentials

/// PL9 (revision 5): the bridge's claims to resume players it paused for an interruption, kept in
/// a file of the user's runtime directory as they change, so a bridge started again — after a
/// crash, an upgrade, a SIGTERM — still resumes them at the interruption's end (the daemon holds
/// their sessions meanwhile, `Arbiter+HeldPlayers.swift`). A claim is the player's program and
/// identity, its track and where it was paused: a player found again playing, on another track
/// or elsewhere in it was touched by the user while the bridge was away, and the claim is dropped.
struct KeptClaim: Codable, Equatable, Sendable {
    var processID: UInt32
    var identity: String
    var track: String?
    /// Where it was paused (µs), if known.
    var position: Int64?
}

struct KeptClaims {
    /// `$XDG_RUNTIME_DIR/audiosession-players.claims` (nil without a runtime directory: nothing kept).
    let path: String?

    init(
        path: String? = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap {
            $0.isEmpty ? nil : $0 + "/audiosession-players.claims"
        }
    ) {
        self.path = path
    }

    /// What a previous run kept (none if nothing, or unreadable).
    func load() -> [KeptClaim] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [] }
        return (try? JSONDecoder().decode([KeptClaim].self, from: data)) ?? []
    }

    /// Replaces what is kept (the file removed when there is nothing).
    func save(_ claims: [KeptClaim]) throws {
        guard let path else { return }
        guard !claims.isEmpty else { return _ = try? FileManager.default.removeItem(atPath: path) }
        try JSONEncoder().encode(claims).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
