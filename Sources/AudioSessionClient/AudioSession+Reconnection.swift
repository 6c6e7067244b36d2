import Dispatch
import Glibc

extension AudioSession {
    /// MS1: the daemon is gone. Observers are told `media-services-lost`, calls fail with
    /// `msrv`, and a reconnection starts with backoff (10 ms doubling to 1 s).
    func connectionLost(_ generation: UInt64) {
        let reconnects = state.withLock { state -> Bool in
            guard state.generation == generation, state.phase == .connected else { return false }
            state.phase = .lost
            state.connection = nil
            return true
        }
        guard reconnects else { return }
        eventQueue.async { self.deliver(.mediaServicesLost) }
        guard transport.reconnects else { return }
        startDetachedThread(name: "as-reconnect") { [weak self] in self?.reconnect() }
    }

    /// Opens the connection now, or — when no daemon answers (`msrv`) on a socket — waits for
    /// one in the background as after MS1: calls fail with `msrv` meanwhile, and
    /// `media-services-reset` is posted once connected (MS2). For a program that must not give
    /// up on a session because it started before the daemon (the players bridge at login).
    /// - Returns: whether it is connected now.
    /// - Throws: what the daemon answered when it refused the session (-50 …).
    public func connectOrWaitForDaemon() throws(SessionError) -> Bool {
        do throws(SessionError) {
            try connect()
            return true
        } catch {
            guard error.code == .mediaServicesFailed, transport.reconnects else { throw error }
            let waits = state.withLock { state -> Bool in
                guard state.phase == .idle else { return false }
                state.phase = .lost
                return true
            }
            if waits { startDetachedThread(name: "as-reconnect") { [weak self] in self?.reconnect() } }
            return false
        }
    }

    /// MS2: connects again; on success re-applies the configuration when asked and posts
    /// `media-services-reset`.
    private func reconnect() {
        var delay = 0.01
        while true {
            usleep(UInt32(delay * 1_000_000))
            delay = min(delay * 2, 1)
            let attempt = state.withLock { state -> Result<[AppCall], SessionError>? in
                guard state.phase == .lost else { return nil }  // closed meanwhile
                let generation = state.generation + 1
                do throws(SessionError) {
                    state.connection = try transport.connect(hello, handlers(generation))
                } catch {
                    return .failure(error)
                }
                state.generation = generation
                state.phase = .connected
                return .success(state.callsAfterReset)
            }
            switch attempt {
            case nil: return
            case .failure: continue
            case .success(let calls):
                for call in calls { try? perform(call) }
                eventQueue.async { self.deliver(.mediaServicesReset) }
                return
            }
        }
    }
}
