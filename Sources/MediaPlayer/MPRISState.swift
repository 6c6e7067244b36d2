import Foundation

/// A D-Bus value as MPRIS properties need them.
enum BusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case strings([String])
    case dictionary([(String, BusValue)])

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int32: "i"
        case .int64: "x"
        case .double: "d"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }

    static func == (lhs: BusValue, rhs: BusValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.objectPath(let a), .objectPath(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.strings(let a), .strings(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

/// The Now Playing information as MPRIS reads it, kept without `Any` (it crosses to the bus's thread).
struct NowPlaying: Equatable, Sendable {
    var title: String?
    var artists: [String] = []
    var album: String?
    var albumArtists: [String] = []
    var genres: [String] = []
    var duration: Double?
    var elapsed: Double?
    var rate: Double?
    var trackNumber: Int?
    var queueIndex: Int?
    var artURL: String?
    /// When it was set (seconds, monotonic): the position runs on from the elapsed time at the rate.
    var setAt: Double = 0

    init() {}

    init(_ info: [String: Any], at now: Double) {
        func text(_ key: String) -> String? { info[key].map { "\($0)" } }
        func number(_ key: String) -> Double? {
            switch info[key] {
            case let value as Double: value
            case let value as Float: Double(value)
            case let value as Int: Double(value)
            case let value as NSNumber: value.doubleValue
            default: nil
            }
        }
        title = text(MPMediaItemPropertyTitle)
        artists = text(MPMediaItemPropertyArtist).map { [$0] } ?? []
        album = text(MPMediaItemPropertyAlbumTitle)
        albumArtists = text(MPMediaItemPropertyAlbumArtist).map { [$0] } ?? []
        genres = text(MPMediaItemPropertyGenre).map { [$0] } ?? []
        duration = number(MPMediaItemPropertyPlaybackDuration)
        elapsed = number(MPNowPlayingInfoPropertyElapsedPlaybackTime)
        rate = number(MPNowPlayingInfoPropertyPlaybackRate)
        trackNumber = number(MPMediaItemPropertyAlbumTrackNumber).map { Int($0) }
        queueIndex = number(MPNowPlayingInfoPropertyPlaybackQueueIndex).map { Int($0) }
        artURL = (info[MPMediaItemPropertyArtwork] as? MPMediaItemArtwork)?.url?.absoluteString
        setAt = now
    }
}

/// Which remote commands the desktop may send (enabled, with a handler).
struct OfferedCommands: Equatable, Sendable {
    var play = false, pause = false, toggle = false, stop = false, next = false, previous = false, seek = false
    /// The repeat, shuffle and rate commands: MPRIS `LoopStatus`, `Shuffle` and `Rate` are writable
    /// (and the first two present) only while they are offered.
    var loop = false, shuffle = false, rate = false
    var repeatType = MPRepeatType.off
    var shuffleType = MPShuffleType.off
}

/// The MPRIS player's state: pure, from the Now Playing information, the playback state and
/// the commands on offer (MPRIS 2.2, org.mpris.MediaPlayer2.Player).
struct MPRISState: Equatable, Sendable {
    var nowPlaying: NowPlaying?
    var playbackState: MPNowPlayingPlaybackState = .unknown
    var commands = OfferedCommands()
    /// The app's audio session was active and is not any more (it deactivated, or was interrupted):
    /// what Control Center shows then is not playing, whatever rate the Now Playing info still says.
    var sessionLetGo = false

    /// The app's word if it gave one, else the rate: above 0 playing, 0 paused; nothing: stopped;
    /// paused while its session, once active, is not.
    var playbackStatus: String {
        switch playbackState {
        case .playing: return "Playing"
        case .paused, .interrupted: return "Paused"
        case .stopped: return "Stopped"
        case .unknown:
            guard let nowPlaying else { return "Stopped" }
            if sessionLetGo { return "Paused" }
            return (nowPlaying.rate ?? 1) > 0 ? "Playing" : "Paused"
        }
    }

    var rate: Double {
        guard playbackStatus == "Playing" else { return nowPlaying?.rate ?? 1 }
        return nowPlaying?.rate ?? 1
    }

    /// Microseconds into the track: the elapsed time given, run on at the rate while playing.
    func position(now: Double) -> Int64 {
        guard let nowPlaying, let elapsed = nowPlaying.elapsed else { return 0 }
        var seconds = elapsed
        if playbackStatus == "Playing" { seconds += (now - nowPlaying.setAt) * (nowPlaying.rate ?? 1) }
        if let duration = nowPlaying.duration { seconds = min(seconds, duration) }
        return Int64(max(0, seconds) * 1_000_000)
    }

    /// The track's object path (`mpris:trackid`): one per queue index, else per title.
    var trackID: String {
        guard let nowPlaying else { return "/org/mpris/MediaPlayer2/TrackList/NoTrack" }
        let number =
            nowPlaying.queueIndex
            ?? Int(UInt32(truncatingIfNeeded: (nowPlaying.title ?? "").utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        return "/org/mpris/MediaPlayer2/track/\(number)"
    }

    var metadata: [(String, BusValue)] {
        guard let nowPlaying else { return [] }
        var entries: [(String, BusValue)] = [("mpris:trackid", .objectPath(trackID))]
        if let title = nowPlaying.title { entries.append(("xesam:title", .string(title))) }
        if !nowPlaying.artists.isEmpty { entries.append(("xesam:artist", .strings(nowPlaying.artists))) }
        if let album = nowPlaying.album { entries.append(("xesam:album", .string(album))) }
        if !nowPlaying.albumArtists.isEmpty { entries.append(("xesam:albumArtist", .strings(nowPlaying.albumArtists))) }
        if !nowPlaying.genres.isEmpty { entries.append(("xesam:genre", .strings(nowPlaying.genres))) }
        if let duration = nowPlaying.duration { entries.append(("mpris:length", .int64(Int64(duration * 1_000_000)))) }
        if let track = nowPlaying.trackNumber { entries.append(("xesam:trackNumber", .int32(Int32(clamping: track)))) }
        if let art = nowPlaying.artURL { entries.append(("mpris:artUrl", .string(art))) }
        return entries
    }

    /// org.mpris.MediaPlayer2.Player's properties.
    func playerProperties(now: Double) -> [(String, BusValue)] {
        [
            ("PlaybackStatus", .string(playbackStatus)),
            ("Rate", .double(rate)),
            ("Metadata", .dictionary(metadata)),
            ("Volume", .double(1)),
            ("Position", .int64(position(now: now))),
            ("MinimumRate", .double(0.5)),
            ("MaximumRate", .double(3)),
            ("CanGoNext", .bool(commands.next)),
            ("CanGoPrevious", .bool(commands.previous)),
            ("CanPlay", .bool(commands.play || commands.toggle)),
            ("CanPause", .bool(commands.pause || commands.toggle)),
            ("CanSeek", .bool(commands.seek)),
            ("CanControl", .bool(true)),
        ]
            + (commands.loop ? [("LoopStatus", .string(Self.loopStatus(commands.repeatType)))] : [])
            + (commands.shuffle ? [("Shuffle", .bool(commands.shuffleType != .off))] : [])
    }

    /// MPRIS `LoopStatus` for a repeat mode, and back.
    static func loopStatus(_ type: MPRepeatType) -> String {
        switch type {
        case .off: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }

    static func repeatType(loopStatus: String) -> MPRepeatType? {
        switch loopStatus {
        case "None": .off
        case "Track": .one
        case "Playlist": .all
        default: nil
        }
    }

    /// org.mpris.MediaPlayer2's properties.
    static func rootProperties(identity: String) -> [(String, BusValue)] {
        [
            ("CanQuit", .bool(false)), ("CanRaise", .bool(false)), ("HasTrackList", .bool(false)),
            ("Identity", .string(identity)), ("SupportedUriSchemes", .strings([])), ("SupportedMimeTypes", .strings([])),
        ]
    }
}
