import Dispatch
import PulseClient

/// The server's default sink (HW7's volume sink while no session owns the route; RT13's user
/// choice), as reported at the connection, on a change, and every second on PipeWire.
///
/// pipewire-pulse 0.3 tells a client that connected before WirePlumber published its defaults
/// `@DEFAULT_SINK@` — no sink — for as long as that connection lasts, while a client connecting
/// later is told the real one (measured: a client connected within milliseconds of a restarted
/// server's socket, 1 run in 4; the backend reconnects that fast after MS3's loss). When this
/// connection is told a name that is no sink of the server, a new short connection is asked
/// instead, each time it is told so (so a change of the default is still followed, within the
/// second of PipeWire's polling). Decision: the late connection's answer is the server's
/// truth; our long connection is not replaced (MS2 is a reset apps are told of, not a detail).
extension PulseBackend {
    /// HW7, RT13: a reported default sink.
    func followDefaultSink(_ reported: String) {
        var name = reported
        if !isKnownSink(reported), state.withLock({ $0.link.serverName?.contains("PipeWire") == true }) {
            // Until the new connection answers, the sink known before (if still there) stays.
            let (asked, current) = state.withLock { ($0.askedDefaultSink, $0.defaultSink) }
            if let known = [asked, current].compactMap({ $0 }).first(where: isKnownSink) { name = known }
            askNewConnectionForDefaultSink()
        }
        // (Asked again every second on PipeWire, RT13: nothing to do when it is the same.)
        guard
            state.withLock({ state in
                defer { state.defaultSink = name }; return state.defaultSink != name
            })
        else { return }
        logger.debug("default sink", metadata: ["sink": "\(name)", "reported": "\(reported)"])
        followOutputVolume(reported: nil)
        followOutputChoice()  // RT13 (a)
    }

    private func isKnownSink(_ name: String) -> Bool {
        state.withLock { $0.names[true]?.values.contains(name) == true }
    }

    /// Asks the server's default sink on a connection of its own (off the backend's queue: it
    /// waits for the server), then follows it when it names a sink of this connection's server.
    private func askNewConnectionForDefaultSink() {
        let generation = state.withLock { state -> UInt64? in
            guard !state.askingDefaultSink else { return nil }
            state.askingDefaultSink = true
            return state.link.generation
        }
        guard let generation else { return }
        let address = self.address
        DispatchQueue.global().async { [weak self] in
            let name = (try? PulseContext(server: address, name: "audiosessiond (default sink)"))?.defaultSinkName
            guard let self else { return }
            queue.async { [self] in
                let first = state.withLock { state -> Bool? in
                    state.askingDefaultSink = false
                    guard state.link.generation == generation, let name else { return nil }
                    defer { state.askedDefaultSink = name }
                    return state.askedDefaultSink == nil
                }
                guard let first, let name, isKnownSink(name) else { return }
                if first {
                    logger.info(
                        "the server names no default sink to this connection; a new connection was told it (pipewire-pulse)",
                        metadata: ["sink": "\(name)"])
                }
                followDefaultSink(name)
            }
        }
    }
}
