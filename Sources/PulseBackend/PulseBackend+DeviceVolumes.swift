import AudioSessionModel
import CPulse
import Dispatch

/// The device's volumes both ways, as slider positions (the server's volume / 100 %, at most 1
/// for the session; a boost above 100 % set on the server reads as 1 and is left alone):
///
/// - HW7: the system output volume is the volume of the sink the routing owner's route plays
///   to (the default sink while no session owns the route): plugging headphones makes their
///   volume the output volume, as a phone's volume follows its route. A change on the server
///   (a mixer, a volume key) becomes `outputVolume` and every session is told; `system volume V`
///   from a controller sets that sink, and no other.
/// - HW6: an input port's gain is its source's volume. A change on the server becomes the
///   port's gain (`SystemEvent.inputGain`, device side, no notification); an app's
///   `setInputGain` sets the source.
///
/// Both directions are level-triggered like the own streams: what the server reported is
/// followed into the engine when it arrives; after every arbiter step whatever the engine says
/// differently is written to the server and taken as reported, and the server's echo then
/// matches. Values within half a volume step (1/65536) are equal, so an echo never reads as a
/// change.
extension PulseBackend {
    static let volumeStep = 1 / Double(PA_VOLUME_NORM)

    /// HW7: the sink whose volume is the output volume: the one the routing owner's route
    /// plays to, else (no owner, or a port without a sink of its own) the server's default sink.
    func volumeSink(routingOwner: AppID?) -> String? {
        if let owner = routingOwner,
            let sink = deviceName(for: arbiter.status(of: owner)?.currentRoute.outputs.first)
        {
            return sink
        }
        return state.withLock { $0.defaultSink }
    }

    /// HW7 after a sink's report (`reported`: the sink whose volume changed, if one did): the volume
    /// sink's volume into the engine when it changed, or when the volume sink is another one now;
    /// from then on that sink is the one written. A report that repeats the volume we know is no
    /// one's change: PipeWire reports a sink whenever it starts or stops playing, and one that came
    /// between an output-volume step and our write of it took the old volume back as the user's
    /// (ServerRestartTests on PipeWire, under load).
    func followOutputVolume(reported changedSink: String?) {
        let sink = volumeSink(routingOwner: arbiter.deviceStatus.routingOwner)
        let moved = sink != state.withLock { $0.volumeSink }
        guard moved || (sink != nil && sink == changedSink) || sink.map({ isRestoring($0, isSink: true) }) == true else {
            return
        }
        followOutputVolume(of: sink)
    }

    private func followOutputVolume(of sink: String?) {
        if let sink, isRestoring(sink, isSink: true) {
            // MS3: a returning server's sink gets the volume the engine kept.
            state.withLock { $0.volumeSink = sink }
            return restore(arbiter.deviceStatus.outputVolume, to: sink, isSink: true)
        }
        guard
            let volume = state.withLock({ state in
                state.volumeSink = sink
                return sink.flatMap { state.volumes[true]?[$0] }
            })
        else { return }
        let wanted = min(1, max(0, volume))
        guard abs(arbiter.deviceStatus.outputVolume - wanted) > Self.volumeStep / 2 else { return }
        logger.debug(
            "the volume sink's volume is the output volume (HW7)", metadata: ["sink": "\(sink ?? "none")", "volume": "\(wanted)"])
        if let error = arbiter.report(.outputVolume(wanted)) {
            logger.warning("cannot follow the sink volume", metadata: ["volume": "\(wanted)", "error": "\(error)"])
        }
    }

    /// HW6: a source's volume into its port's gain (once the port is plugged).
    func followInputGain(of source: String) {
        guard let volume = state.withLock({ $0.volumes[false]?[source] }), let uid = inputPort(for: source) else { return }
        if isRestoring(source, isSink: false) {
            // MS3: a returning server's source gets the gain the engine kept.
            if let gain = arbiter.inputGains[uid] { restore(gain, to: source, isSink: false) }
            return
        }
        let wanted = min(1, max(0, volume))
        guard let gain = arbiter.inputGains[uid], abs(gain - wanted) > Self.volumeStep / 2 else { return }
        if let error = arbiter.report(.inputGain(uid: uid, wanted)) {
            logger.warning("cannot follow the source volume", metadata: ["source": "\(source)", "error": "\(error)"])
        }
    }

    /// After a step: the engine's output volume and input gains onto the server where they
    /// differ. When the step moved the owner's route to another sink, that sink's volume is
    /// followed instead (HW7): the new route brings its own volume.
    func reconcileDeviceVolumes() {
        let device = arbiter.deviceLevels  // not the whole device status: this runs after every step
        let sink = volumeSink(routingOwner: device.routingOwner)
        if sink != state.withLock({ $0.volumeSink }) {
            followOutputVolume(of: sink)
        } else if let sink {
            write(device.outputVolume, to: sink, isSink: true)
        }
        for port in device.inputs {
            guard let gain = device.inputGains[port.uid], let source = deviceName(for: port) else { continue }
            write(gain, to: source, isSink: false)
        }
    }

    /// Writes a sink's volume or a source's, when the server reported one that differs, and
    /// takes it as reported (the server's echo then matches).
    func write(_ volume: Double, to device: String, isSink: Bool) {
        let balance = state.withLock { state -> [UInt32]? in
            guard let reported = state.volumes[isSink]?[device], abs(min(1, reported) - volume) > Self.volumeStep / 2 else {
                return nil
            }
            state.volumes[isSink]?[device] = volume
            return state.balances[isSink]?[device] ?? []
        }
        guard let balance else { return }
        state.withLock { $0.deviceWrites[isSink, default: [:]][device] = (volume, ContinuousClock.now) }
        server.withLock { $0 }?.setVolume(device: device, isSink: isSink, volume: volume, balance: balance)
        logger.debug(isSink ? "sink volume" : "source volume", metadata: ["device": "\(device)", "volume": "\(volume)"])
    }

    /// How long after our write to a device a report of another volume may be older than the
    /// write (PipeWire answers with a node's volume before it applies a write it has taken).
    static let writeSettling = Duration.milliseconds(500)

    /// Whether a device's report contradicts our write of a moment ago: then it may be from
    /// before the write (on PipeWire under load an output volume of 50 % was undone by a late
    /// report of the 100 % before it, taken for the user's: ServerRestartTests). It is not taken;
    /// the device is asked again once the write has settled, and what it says then is taken —
    /// the user's change, if one came in that moment.
    func isStale(_ device: PulseDevice) -> Bool {
        guard let volume = device.volume,
            let written = state.withLock({ $0.deviceWrites[device.isSink]?[device.name] }),
            ContinuousClock.now - written.at < Self.writeSettling,
            abs(min(1, volume) - written.volume) > Self.volumeStep / 2
        else { return false }
        let (index, isSink) = (device.index, device.isSink)
        logger.debug(
            "a device's report contradicts our write of a moment ago: asked again",
            metadata: ["device": "\(device.name)", "reported": "\(volume)", "written": "\(written.volume)"])
        queue.asyncAfter(deadline: .now() + .milliseconds(600)) { [weak self] in
            self?.server.withLock { $0 }?.askAgain(device: index, isSink: isSink)
        }
        return true
    }

    /// The input port a source stands for: a plugged accessory's UID is the source's name; the
    /// internal microphone is the profile's built-in microphone (the inverse of `deviceName(for:)`).
    func inputPort(for source: String) -> String? {
        let (plugged, builtIn) = state.withLock { ($0.plugged[source] != nil, $0.builtInMicrophone) }
        if plugged { return source }
        guard source == builtIn else { return nil }
        return arbiter.deviceStatus.inputs.first { $0.type == .microphoneBuiltIn }?.uid
    }
}
