import AudioSessionWire
import Dispatch

extension AudioSession {
    /// A new stream of this session's notifications, from now on, in delivery order (SPEC
    /// §13, N2). It ends when the session is closed.
    public func notifications() -> AsyncStream<SessionNotification> {
        let (stream, continuation) = AsyncStream<SessionNotification>.makeStream()
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.streams[state.nextToken] = continuation
            return state.nextToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: token) }
        }
        return stream
    }

    /// Calls `handler` with each notification from now on, in delivery order, on the
    /// session's event queue (before the streams and the poster: NotificationCenter). The queue is serial,
    /// one per session: the delivery context of SPEC §13; a handler may call the session.
    /// - Returns: a token for `removeNotificationHandler(_:)`.
    @discardableResult
    public func addNotificationHandler(_ handler: @escaping @Sendable (SessionNotification) -> Void) -> NotificationHandlerToken {
        state.withLock { state in
            state.nextToken += 1
            state.handlers.append((state.nextToken, handler))
            return NotificationHandlerToken(rawValue: state.nextToken)
        }
    }

    /// A sound object's handler (an engine, a player): called before every other handler and
    /// the NotificationCenter posts, so that what the notification says has happened to the
    /// object (an engine stopped by an interruption, EN6) when the app's observers hear it.
    package func addSoundObjectHandler(_ handler: @escaping @Sendable (SessionNotification) -> Void) -> NotificationHandlerToken {
        state.withLock { state in
            state.nextToken += 1
            state.soundObjectHandlers.append((state.nextToken, handler))
            return NotificationHandlerToken(rawValue: state.nextToken)
        }
    }

    /// The handler is not called again (once any call under way returns).
    public func removeNotificationHandler(_ token: NotificationHandlerToken) {
        state.withLock { state in
            state.handlers.removeAll { $0.token == token.rawValue }
            state.soundObjectHandlers.removeAll { $0.token == token.rawValue }
        }
    }

    /// Runs on `eventQueue`, in arrival order.
    func dispatch(_ event: ServerEvent) {
        switch event {
        case .notification(_, .mediaServicesReset):
            // MS2, MS3: the daemon reset the session (its sound server came back): re-apply first
            // when asked, as after a reconnection.
            for call in state.withLock(\.callsAfterReset) { try? perform(call) }
            deliver(.mediaServicesReset)
        case .notification(_, let notification): deliver(notification)
        case .outputGain(let gain): state.withLock { $0.outputGain = gain }
        case .stopIO, .observed, .permissionPrompt: break
        }
    }

    /// Hands a notification to the handlers, streams, permission waiters and the poster.
    func deliver(_ notification: SessionNotification) {
        let (handlers, streams, waiters, posts) = state.withLock { state in
            switch notification {
            case .interruptionBegan, .mediaServicesLost: if state.knownActive == true { state.knownActive = false }
            default: break
            }
            var waiters: [CheckedContinuation<Bool, Never>] = []
            if case .recordPermission = notification {
                waiters = Array(state.permissionWaiters.values)
                state.permissionWaiters.removeAll()
            }
            return (state.soundObjectHandlers + state.handlers, Array(state.streams.values), waiters, state.callsPoster)
        }
        for (_, handler) in handlers { handler(notification) }
        for stream in streams { stream.yield(notification) }
        if case .recordPermission(let granted) = notification {
            for waiter in waiters { waiter.resume(returning: granted) }
        }
        if posts { post(notification) }  // N4: on the thread iOS posts it on, in order
    }

    func finishStreams() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}

/// Identifies a handler added with `AudioSession.addNotificationHandler(_:)`.
public struct NotificationHandlerToken: Hashable, Sendable {
    let rawValue: UInt64
}
