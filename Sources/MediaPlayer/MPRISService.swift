import AudioSession
import CSystemd
import Dispatch
import Foundation
import Synchronization

/// The app as an MPRIS player on the user's session bus (MPRIS 2.2): the bus name
/// `org.mpris.MediaPlayer2.<process>.instance<pid>`, the object `/org/mpris/MediaPlayer2` with
/// its two interfaces, properties read from the Now Playing information and the remote
/// commands (`MPRISState`), `PropertiesChanged` and `Seeked` when they change, and the methods
/// calling the commands' handlers on the main queue.
///
/// Started by the first Now Playing information or command handler, on a thread of its own (sd-bus
/// is used from that thread only; the app's threads wake it through an eventfd). Without a session
/// bus (`DBUS_SESSION_BUS_ADDRESS`, else the user's), it says so once on standard error and the
/// app runs on without media controls.
final class MPRISService: @unchecked Sendable {
    static let shared = MPRISService()

    private struct Shared {
        var state = MPRISState()
        /// The dictionary as the app set it (what the getter gives back).
        var info: [String: Any]?
        var started = false
        var wake: Int32 = -1
        /// The bus name once taken (for tests and the log).
        var busName: String?
    }
    private let guarded = Mutex(Shared())
    /// The state as it is now (for the bus's thread).
    /// The state, with what the app's session says now (its activity as the process knows it,
    /// read without connecting: MediaPlayer alone never connects a session).
    var current: MPRISState {
        var state = guarded.withLock { $0.state }
        state.sessionLetGo = AVAudioSession.sharedInstance().session.activityAsKnown == false
        return state
    }
    let identity = ProcessInfo.processInfo.processName

    var nowPlayingInfo: [String: Any]? { guarded.withLock { $0.info } }
    var playbackState: MPNowPlayingPlaybackState { guarded.withLock { $0.state.playbackState } }
    /// The bus name the app took, once it has.
    var busName: String? { guarded.withLock { $0.busName } }

    func setNowPlayingInfo(_ info: [String: Any]?) {
        let now = Self.now
        changed { shared in
            shared.info = info
            shared.state.nowPlaying = info.map { NowPlaying($0, at: now) }
        }
    }

    func setPlaybackState(_ playbackState: MPNowPlayingPlaybackState) {
        changed { $0.state.playbackState = playbackState }
    }

    func commandsChanged() {
        let center = MPRemoteCommandCenter.shared()
        let offered = OfferedCommands(
            play: center.playCommand.isOffered, pause: center.pauseCommand.isOffered,
            toggle: center.togglePlayPauseCommand.isOffered, stop: center.stopCommand.isOffered,
            next: center.nextTrackCommand.isOffered, previous: center.previousTrackCommand.isOffered,
            seek: center.changePlaybackPositionCommand.isOffered, loop: center.changeRepeatModeCommand.isOffered,
            shuffle: center.changeShuffleModeCommand.isOffered, rate: center.changePlaybackRateCommand.isOffered,
            repeatType: center.changeRepeatModeCommand.currentRepeatType,
            shuffleType: center.changeShuffleModeCommand.currentShuffleType)
        changed { $0.state.commands = offered }
    }

    /// Applies a change, starts the service on first use and wakes its thread to announce it.
    private func changed(_ change: (inout Shared) -> Void) {
        let (start, wake) = guarded.withLock { shared -> (Bool, Int32) in
            change(&shared)
            defer { shared.started = true }
            return (!shared.started, shared.wake)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "MPRIS"
            thread.start()
        } else if wake >= 0 {
            _ = eventfd_write(wake, 1)
        }
    }

    static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: The bus's thread

    private var bus: OpaquePointer?
    /// What was last announced, to announce only what changed.
    private var announced: [(String, BusValue)] = []
    private var announcedPosition: (at: Double, position: Int64, playing: Bool)?

    static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let rootInterface = "org.mpris.MediaPlayer2"

    private func run() {
        var opened: OpaquePointer?
        guard sd_bus_open_user(&opened) >= 0, let bus = opened else {
            FileHandle.standardError.write(
                Data("MediaPlayer: no session bus; the desktop's media controls will not see this app\n".utf8))
            return
        }
        self.bus = bus
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        let name = Self.busName(for: identity)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard sd_bus_add_object(bus, nil, Self.path, Self.handle, me) >= 0, sd_bus_request_name(bus, name, 0) >= 0 else {
            FileHandle.standardError.write(Data("MediaPlayer: cannot take the bus name \(name)\n".utf8))
            return
        }
        guarded.withLock { shared in
            shared.wake = wake
            shared.busName = name
        }
        announced = currentProperties()
        while true {
            while sd_bus_process(bus, nil) > 0 {}
            announce()
            var descriptors = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, 1000) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 {
                var value: eventfd_t = 0
                _ = eventfd_read(wake, &value)
            }
        }
    }

    /// `org.mpris.MediaPlayer2.<process>.instance<pid>`, the process's name kept to what a bus name may hold.
    static func busName(for identity: String) -> String {
        var element = String(
            identity.unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_"
            })
        if element.isEmpty || element.first!.isNumber { element = "app" + element }
        return "org.mpris.MediaPlayer2.\(element).instance\(getpid())"
    }

    private func currentProperties() -> [(String, BusValue)] {
        current.playerProperties(now: Self.now).filter { $0.0 != "Position" }
    }

    /// PropertiesChanged for what changed; Seeked when the position jumped (the app set a new
    /// elapsed time, not the one its rate led to).
    private func announce() {
        let state = current  // (checked at least once a second: the loop's poll times out)
        let now = Self.now
        let properties = state.playerProperties(now: now).filter { $0.0 != "Position" }
        let changed = properties.filter { entry in !announced.contains { $0.0 == entry.0 && $0.1 == entry.1 } }
        if !changed.isEmpty {
            announced = properties
            signal("PropertiesChanged", of: "org.freedesktop.DBus.Properties") { message in
                Self.append(.string(Self.playerInterface), to: message)
                Self.append(.dictionary(changed), to: message)
                sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s")
                sd_bus_message_close_container(message)
            }
        }
        let position = state.position(now: now)
        let playing = state.playbackStatus == "Playing"
        if let last = announcedPosition {
            let expected = last.position + (last.playing ? Int64((now - last.at) * state.rate * 1_000_000) : 0)
            if abs(position - expected) > 500_000, !changed.contains(where: { $0.0 == "Metadata" }) {
                signal("Seeked", of: Self.playerInterface) { Self.append(.int64(position), to: $0) }
            }
        }
        announcedPosition = (now, position, playing)
    }

    private func signal(_ member: String, of interface: String, _ body: (OpaquePointer) -> Void) {
        guard let bus else { return }
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, Self.path, interface, member) >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        body(message)
        sd_bus_send(bus, message, nil)
    }
}
