import AudioSessionModel
import AudioSessionRuntime

#if canImport(Glibc)
import Glibc
#endif

/// §16 PL1: the streams of a player's process, or of its descendants (a browser's audio
/// process), are its app's own streams — governed by its session (D1, D4, C11, D2–D5; muted
/// while its output is not running, so from an interruption's step until its end, PL3) and moved
/// to its route — never other audio. The bridge's app connection names the process
/// (`PlayerClaim`); when players come or go, the server's streams are listed again and each one
/// changes hands as it now must.
extension PulseBackend {
    /// The player app a stream belongs to: its `application.process.id`, or the nearest ancestor
    /// of it, that a player app speaks for.
    func playerApp(of stream: PulseStream) -> String? {
        if let app = arbiter.app(forFirstOf: lineage(of: stream)) { return app.rawValue }
        return proxiedPlayerApp(of: stream)
    }

    /// PL1 (revision 6): an MPRIS proxy plays nothing itself (mpDris2 speaks for mpd, whose sound
    /// comes from mpd's process). While no stream is of a player's own processes, a stream whose
    /// program's `application.name` or binary is the player's `Identity` — or the last part of its
    /// bus name, which stands here for its `DesktopEntry` (the bridge does not send that; for mpd
    /// both are "mpd") — compared case-blind, is the player's.
    func proxiedPlayerApp(of stream: PulseStream) -> String? {
        let names = [stream.properties["application.name"], stream.properties["application.process.binary"]]
            .compactMap { $0?.lowercased() }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        let claims = arbiter.playerClaims
        guard !claims.isEmpty else { return nil }
        for (app, claim) in claims.sorted(by: { $0.key < $1.key }) {
            let own = [claim.identity.lowercased(), claim.busName.lowercased()].filter { !$0.isEmpty }
            guard names.contains(where: own.contains) else { continue }
            let playsItself = state.withLock { state in state.lineages.values.contains { $0.contains(claim.processID) } }
            if !playsItself { return app.rawValue }
        }
        return nil
    }

    /// A stream's process and its ancestors, nearest first: read from /proc once per stream, not
    /// on every report of it (a duck's echo is one).
    func lineage(of stream: PulseStream) -> [Int32] {
        let key = StreamKey(index: stream.index, isRecord: stream.isRecord)
        if let known = state.withLock({ $0.lineages[key] }) { return known }
        var lineage: [Int32] = []
        if var pid = stream.properties["application.process.id"].flatMap({ Int32($0) }), pid > 1 {
            lineage.append(pid)
            while lineage.count < 16, let parent = Self.parent(of: pid), parent > 1 {
                lineage.append(parent)
                pid = parent
            }
        }
        state.withLock { $0.lineages[key] = lineage }
        return lineage
    }

    /// A process's parent, from /proc (nil when it is gone).
    static func parent(of pid: Int32) -> Int32? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        let line = String(decoding: buffer.prefix(count), as: UTF8.self)
        // "PID (COMM) STATE PPID …": COMM may hold spaces and parentheses; the last ')' ends it.
        guard let end = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: end)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// A stream the server reported: followed for calls (CL1), then given to its owner as
    /// `owner(of:)` answers — a client's, a call's, a player's or a hosted session's own stream, or
    /// other audio. A stream that changed hands since it was last seen leaves its old keeper.
    func streamReported(_ stream: PulseStream) {
        followForCalls(stream)
        let key = StreamKey(index: stream.index, isRecord: stream.isRecord)
        let owner = owner(of: stream)
        // SO1: a client's stream by its process (not by the app id it carries) is that app's I/O.
        let byProcess: AppID? = if case .client(let app) = owner, stream.app == nil { AppID(app) } else { nil }
        defer { processStream(key, app: byProcess) }
        if let app = owner.app {
            var stream = stream
            // Was other audio: an app's own now, as it was before our duck or mute (and our writes
            // known as ours).
            let released = releaseOtherAudio(stream.index)
            if let released {
                if let own = released.ownVolume { stream.volume = own }
                stream.isMuted = stream.isMuted && released.ownMuted  // our mute was just undone
            }
            // CL4: a call's streams stay where its program put them (never moved by us).
            ownStreamPresent(
                stream, app: app, isCall: { if case .call = owner { true } else { false } }(),
                written: released?.written ?? WrittenVolumes())
            return
        }
        if let own = state.withLock({ $0.ownStreams[key] }) {
            // A player's stream whose app departed (PL6, the bridge gone), or a call's that ended:
            // other audio again, unmuted first if the session had muted it.
            _ = ownStreamRemoved(stream.index, isRecord: stream.isRecord)
            if own.appliedMute == true { setMute(stream.index, false, because: "its session is gone") }
        }
        if owner == .systemCall || owner == .systemSound || (owner == .nobody && !stream.isRecord) {
            // CL6 `system: call`: the program's own streams are left as they were, never muted.
            // SO6: nor is an app's system sound. OA4: nor the server's own (a loopback, a filter's).
            // (Other audio is playback: a capture stream's index is of another numbering.)
            _ = releaseOtherAudio(stream.index)
            return
        }
        if !stream.isRecord { streamPresent(stream) }  // other audio; foreign recordings take no part
    }

    /// A stream of other audio changes hands (a player's, a call's, a hosted session's own now, or
    /// left alone for a system call): it stops being other audio and is given back what it was
    /// before our duck and mute. Returns it as it was left (nil: it was no other audio).
    func releaseOtherAudio(_ index: UInt32) -> ForeignStream? {
        guard var foreign = state.withLock({ $0.streams[index] }) else { return nil }
        if foreign.mutedByUs { setMute(index, false, because: "it is no other audio any more (CL4, PL1)") }
        if foreign.ducked, let own = foreign.ownVolume, own > 0, let server = server.withLock({ $0 }) {
            foreign.written.wrote(own, number: server.setVolume(stream: index, channels: foreign.channels, volume: own))
        }
        (foreign.mutedByUs, foreign.ducked) = (false, false)
        update(index) { $0 = foreign }
        followLedger(index)  // OA6: nothing of ours left on it
        streamRemoved(index)
        return foreign
    }

    /// The one door: a player's app connected or departed; its streams change hands.
    public func playersChanged() {
        queue.async { [self] in server.withLock { $0 }?.listStreamsAgain() }
    }
}
