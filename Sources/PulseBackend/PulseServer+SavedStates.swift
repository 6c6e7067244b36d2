import CPulse

#if canImport(Glibc)
import Glibc
#endif

/// OA6: the sound servers keep each program's last volume and mute and give them to its next
/// stream — PulseAudio's module-stream-restore, and on PipeWire WirePlumber's restore-stream
/// (pipewire-pulse passes this extension's writes on to it). What they keep is keyed by the
/// stream's *restore group*; a duck or mute of ours on a stream that ends would be kept as the
/// program's own, so the backend writes the program's own back (`writeSaved`).
extension PulseServer {
    /// A property a program may set to choose its group itself (module-stream-restore reads it first).
    public static let restoreIDProperty = "module-stream-restore.id"

    /// What a program's next stream is to start with, by restore group.
    public struct SavedState: Sendable, Equatable, Codable {
        /// `sink-input-by-media-role:music`, `sink-input-by-application-name:game` …
        public var group: String
        /// The program's own volume (`PA_VOLUME_NORM` is 100%), its loudest channel; nil: the
        /// saved volume is left as it is.
        public var volume: UInt32?
        public var muted: Bool
        /// The stream's channels, for a group the server has no entry for yet.
        public var channels: UInt8

        public init(group: String, volume: UInt32?, muted: Bool, channels: UInt8) {
            self.group = group
            self.volume = volume
            self.muted = muted
            self.channels = channels
        }
    }

    /// The group the servers keep a playback stream's volume and mute under: the property a
    /// program set for it, else its media role, application id, application name or media name,
    /// the first it has (module-stream-restore's order, and WirePlumber's); nil: none is kept.
    public static func restoreGroup(of properties: [String: String]) -> String? {
        if let chosen = properties[restoreIDProperty] { return chosen }
        let keys = [
            ("media.role", "media-role"), ("application.id", "application-id"),
            ("application.name", "application-name"), ("media.name", "media-name"),
        ]
        for (key, name) in keys {
            if let value = properties[key], !value.isEmpty { return "sink-input-by-\(name):\(value)" }
        }
        return nil
    }

    /// Writes each group's state as the server's saved one: the saved entries are read, and each
    /// given group's mute and volume changed (its balance and its saved output device kept —
    /// the user's choices), or made. Without the extension (a server that keeps nothing)
    /// nothing is written. With `wait`, returns once the server has answered (at most 1 s);
    /// `then` runs on the main loop's thread once it has (or could not).
    public func writeSaved(_ states: [SavedState], wait: Bool = false, then: (@Sendable () -> Void)? = nil) {
        guard !states.isEmpty else { return }
        let job = SavedWrite(states, then: then)
        pa_threaded_mainloop_lock(mainloop)
        let pointer = Unmanaged.passRetained(job).toOpaque()
        let operation = pa_ext_stream_restore_read(context, Self.savedRead, pointer)
        if let operation {
            pa_operation_unref(operation)
        } else {
            Unmanaged<SavedWrite>.fromOpaque(pointer).release()
            then?()
        }
        pa_threaded_mainloop_unlock(mainloop)
        if wait, operation != nil { waitUntil { job.done } }
    }

    /// Polls (with the main loop's lock) until `done` holds, the connection is no longer ready (a
    /// server going away answers nothing more: a daemon stopping with its server waited out the
    /// whole timeout), or `timeout` seconds. Not from a callback.
    func waitUntil(timeout: Double = 1, _ done: () -> Bool) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            pa_threaded_mainloop_lock(mainloop)
            let finished = done() || pa_context_get_state(context) != PA_CONTEXT_READY
            pa_threaded_mainloop_unlock(mainloop)
            if finished { return }
            usleep(2_000)
        }
    }

    /// One `writeSaved`: the states asked for, what the server had for them, whether it is over.
    /// Touched on the main loop's thread, or with its lock held.
    private final class SavedWrite: @unchecked Sendable {
        let states: [SavedState]
        var found: [String: (map: pa_channel_map, volume: pa_cvolume, device: String?)] = [:]
        let then: (@Sendable () -> Void)?
        var done = false
        init(_ states: [SavedState], then: (@Sendable () -> Void)?) {
            self.states = states
            self.then = then
        }

        /// The server has answered (or cannot): said once, and the job let go.
        static func finish(_ job: Unmanaged<SavedWrite>) {
            let write = job.takeUnretainedValue()
            write.done = true
            write.then?()
            job.release()
        }
    }

    private static let savedRead: pa_ext_stream_restore_read_cb_t = { context, info, end, userdata in
        let job = Unmanaged<SavedWrite>.fromOpaque(userdata!)
        let write = job.takeUnretainedValue()
        if end == 0, let info = info?.pointee {
            let name = String(cString: info.name)
            if write.states.contains(where: { $0.group == name }) {
                write.found[name] = (info.channel_map, info.volume, info.device.map { String(cString: $0) })
            }
            return
        }
        guard end > 0, let context else { return SavedWrite.finish(job) }  // no such extension: nothing kept
        // The names and devices live until the write is sent.
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        var entries: [pa_ext_stream_restore_info] = write.states.map { state in
            var entry = pa_ext_stream_restore_info()
            let name = strdup(state.group)!
            strings.append(name)
            entry.name = UnsafePointer(name)
            entry.mute = state.muted ? 1 : 0
            if let saved = write.found[state.group] {
                entry.channel_map = saved.map
                entry.volume = saved.volume
                if let device = saved.device.flatMap({ strdup($0) }) {
                    strings.append(device)
                    entry.device = UnsafePointer(device)
                }
            }
            if entry.channel_map.channels == 0 {  // none saved (or no volume saved): the stream's channels
                pa_channel_map_init_extend(&entry.channel_map, UInt32(min(max(state.channels, 1), 32)), PA_CHANNEL_MAP_DEFAULT)
                entry.volume.channels = 0
            }
            if let volume = state.volume {
                if entry.volume.channels == entry.channel_map.channels {
                    pa_cvolume_scale(&entry.volume, volume)  // the saved balance, at the program's own level
                } else {
                    pa_cvolume_set(&entry.volume, UInt32(entry.channel_map.channels), volume)
                }
            } else if entry.volume.channels != entry.channel_map.channels {
                entry.volume.channels = 0  // none to write: the saved volume stays
            }
            return entry
        }
        // Each entry is written twice, first without its volume: pipewire-pulse hands a write to
        // WirePlumber as a metadata value, and a value equal to the last one written is no
        // change to it (a second write-back of the same program's state would be lost, and
        // WirePlumber keep the duck or mute it saved meanwhile). The second write is the state.
        entries = entries.flatMap { entry in
            var bare = entry
            bare.volume.channels = 0
            return [bare, entry]
        }
        // Not applied to the streams playing now (`apply_immediately` 0): those are governed.
        let operation = pa_ext_stream_restore_write(
            context, PA_UPDATE_REPLACE, &entries, UInt32(entries.count), 0,
            { _, _, userdata in SavedWrite.finish(Unmanaged<SavedWrite>.fromOpaque(userdata!)) }, userdata)
        if let operation { pa_operation_unref(operation) } else { SavedWrite.finish(job) }
    }
}
