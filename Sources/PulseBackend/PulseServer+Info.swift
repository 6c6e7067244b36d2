import CPulse
import PulseClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// What the server answers (on its main loop's thread): sinks, sources, clients, streams and the
// server's defaults, as libpulse's callbacks hand them over, mapped to what the backend reads.
extension PulseServer {
    /// Asks for a sink's or source's info again; the answer is reported as `.present`.
    public func askAgain(device index: UInt32, isSink: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if isSink {
            Self.release(pa_context_get_sink_info_by_index(context, index, Self.sinkInfo, me))
        } else {
            Self.release(pa_context_get_source_info_by_index(context, index, Self.sourceInfo, me))
        }
    }

    static let sinkInfo: pa_sink_info_cb_t = { _, info, end, userdata in
        guard end == 0, let info = info?.pointee else { return }
        server(userdata).handler(.present(device(info)))
    }

    static let sourceInfo: pa_source_info_cb_t = { _, info, end, userdata in
        guard end == 0, let info = info?.pointee else { return }
        server(userdata).handler(.present(device(info)))
    }

    /// The initial listings: the same, and the end of each lets `init` return.
    static let sinkListing: pa_sink_info_cb_t = { context, info, end, userdata in
        guard end == 0 else { return server(userdata).listingEnded() }
        sinkInfo(context, info, end, userdata)
    }

    static let sourceListing: pa_source_info_cb_t = { context, info, end, userdata in
        guard end == 0 else { return server(userdata).listingEnded() }
        sourceInfo(context, info, end, userdata)
    }

    static let clientInfo: pa_client_info_cb_t = { _, info, end, userdata in
        guard end == 0, let info = info?.pointee else { return }
        server(userdata).clientProcesses[info.index] = properties(info.proplist, processKeys)
    }

    static let clientListing: pa_client_info_cb_t = { context, info, end, userdata in
        guard end == 0 else { return server(userdata).listingEnded() }
        clientInfo(context, info, end, userdata)
    }

    /// A stream's properties, its process's taken from its client where the stream has none.
    func streamProperties(_ list: OpaquePointer?, client: UInt32) -> [String: String] {
        let own = Self.properties(list, Self.streamKeys)
        guard let process = clientProcesses[client] else { return own }
        return own.merging(process) { mine, _ in mine }
    }

    /// A sink input's info (or a listing's), with the writes sent before it was asked (`Asked`).
    static let streamInfo: pa_sink_input_info_cb_t = { _, info, end, userdata in
        let asked = Unmanaged<Asked>.fromOpaque(userdata!)
        let server = asked.takeUnretainedValue().server
        guard end == 0, let info = info?.pointee else {
            if asked.takeUnretainedValue().isListing { server.listingEnded() }
            return server.answered(asked)
        }
        var stream = PulseStream(
            index: info.index, device: info.sink, channels: info.volume.channels,
            properties: server.streamProperties(info.proplist, client: info.client),
            isMuted: info.mute != 0, volume: info.volume.channels > 0 && info.has_volume != 0 ? info.volume.values.0 : nil)
        stream.writesSeen = asked.takeUnretainedValue().writes
        stream.client = info.client == UInt32.max ? nil : info.client  // PA_INVALID_INDEX: a module's
        server.handler(.streamPresent(stream))
    }

    static let recordStreamInfo: pa_source_output_info_cb_t = { _, info, end, userdata in
        guard end == 0, let info = info?.pointee else { return }
        let server = server(userdata)
        var stream = PulseStream(
            index: info.index, device: info.source, channels: info.volume.channels,
            properties: server.streamProperties(info.proplist, client: info.client), isMuted: info.mute != 0,
            volume: nil, isRecord: true)
        stream.client = info.client == UInt32.max ? nil : info.client  // PA_INVALID_INDEX: a module's
        server.handler(.streamPresent(stream))
    }

    static let recordStreamListing: pa_source_output_info_cb_t = { context, info, end, userdata in
        guard end == 0 else { return server(userdata).listingEnded() }
        recordStreamInfo(context, info, end, userdata)
    }

    static let serverInfo: pa_server_info_cb_t = { _, info, userdata in
        guard let name = info?.pointee.default_sink_name else { return }
        server(userdata).handler(.defaultSink(String(cString: name)))
    }

    static let serverListing: pa_server_info_cb_t = { context, info, userdata in
        serverInfo(context, info, userdata)
        server(userdata).listingEnded()
    }

    func listingEnded() {
        pendingListings -= 1
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    static func server(_ userdata: UnsafeMutableRawPointer?) -> PulseServer {
        Unmanaged<PulseServer>.fromOpaque(userdata!).takeUnretainedValue()
    }

    static func device(_ info: pa_sink_info) -> PulseDevice {
        device(
            index: info.index, name: info.name, description: info.description, isSink: true, proplist: info.proplist,
            port: info.active_port.map { ($0.pointee.name, UInt32($0.pointee.type), $0.pointee.available) },
            volume: loudest(info.volume), channels: channels(info.volume), rate: info.sample_spec.rate)
    }

    /// Each channel's volume.
    static func channels(_ volume: pa_cvolume) -> [UInt32] {
        var values = volume.values
        let count = Int(min(volume.channels, UInt8(PA_CHANNELS_MAX)))
        return withUnsafeBytes(of: &values) { Array($0.bindMemory(to: UInt32.self).prefix(count)) }
    }

    /// A volume's loudest channel as a slider position (1 = 100%); nil without channels.
    static func loudest(_ volume: pa_cvolume) -> Double? {
        var volume = volume
        guard volume.channels > 0 else { return nil }
        return Double(pa_cvolume_max(&volume)) / Double(PA_VOLUME_NORM)
    }

    static func device(_ info: pa_source_info) -> PulseDevice {
        device(
            index: info.index, name: info.name, description: info.description, isSink: false, proplist: info.proplist,
            port: info.active_port.map { ($0.pointee.name, UInt32($0.pointee.type), $0.pointee.available) },
            volume: loudest(info.volume), channels: channels(info.volume), rate: info.sample_spec.rate)
    }

    /// What sinks and sources share: names, properties, the active port (type, availability).
    static func device(
        index: UInt32, name: UnsafePointer<CChar>, description: UnsafePointer<CChar>?, isSink: Bool, proplist: OpaquePointer?,
        port: (name: UnsafePointer<CChar>?, type: UInt32, available: Int32)?, volume: Double?, channels: [UInt32], rate: UInt32
    ) -> PulseDevice {
        PulseDevice(
            index: index, name: String(cString: name), description: description.map { String(cString: $0) } ?? "",
            isSink: isSink, properties: properties(proplist), activePortName: port?.name.map { String(cString: $0) },
            activePortType: port?.type ?? 0, isAvailable: port.map { $0.available != 1 } ?? true, volume: volume,
            channelVolumes: channels, sampleRate: rate > 0 ? Double(rate) : nil)
    }

    /// The proplist keys the port mapping reads, and those of streams.
    static let deviceKeys = [
        "device.bus", "device.form_factor", "device.class", "device.master_device", "bluetooth.protocol",
        "device.profile.name", "api.bluez5.profile", "device.description",
    ]
    static let streamKeys =
        [
            "media.role", "application.name", "application.id", "media.name", PulseServer.restoreIDProperty,
            PulseStream.appProperty, PulseStream.systemSoundProperty,
        ]
        + processKeys
    /// What names a stream's process (on the stream, or on its client).
    static let processKeys = ["application.process.id", "application.process.user", "application.process.binary"]

    static func properties(_ list: OpaquePointer?, _ keys: [String] = deviceKeys) -> [String: String] {
        var result: [String: String] = [:]
        for key in keys {
            if let value = pa_proplist_gets(list, key) { result[key] = String(cString: value) }
        }
        return result
    }
}
