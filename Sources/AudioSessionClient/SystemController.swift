import AudioSessionWire
import Dispatch
import Synchronization

/// A connection that speaks for the system rather than an app: system events (SPEC §0 system
/// steps), answers to record-permission prompts, the device view and every app's
/// notifications. As `.controller` it must run as root or as the daemon's user, or in the
/// system trust mode as a configured controller (else `ent?`); as `.monitor` it may only read.
public final class SystemController: Sendable {
    /// The connection's role.
    public enum Role: Sendable {
        case controller, monitor
    }

    private let connection: any SessionConnection
    private let eventQueue = DispatchQueue(label: "audiosession.system-events")

    /// Connects now. `onEvent` receives observed notifications (after `subscribe()`) and
    /// permission prompts, in order, on a queue of the controller's own; `onLost` is called
    /// there once, after the last event, if the daemon goes away (MS1: a controller does not
    /// reconnect by itself; make a new one).
    /// - Throws: `msrv` when no daemon listens.
    public init(
        transport: AudioSessionTransport, role: Role = .controller,
        onEvent: @escaping @Sendable (ServerEvent) -> Void = { _ in }, onLost: @escaping @Sendable () -> Void = {}
    ) throws(SessionError) {
        let queue = eventQueue
        connection = try transport.connect(
            Hello(role: role == .controller ? .controller : .monitor),
            ConnectionHandlers(event: { event in queue.async { onEvent(event) } }, lost: { queue.async { onLost() } }))
    }

    deinit { connection.close() }

    /// Performs a system event (plug, unplug, lock, a call …).
    /// - Throws: the engine's error; `ent?` when this connection may not control the system.
    public func perform(_ event: SystemEvent) throws(SessionError) {
        try expectDone(connection.request(.system(event)))
    }

    /// P2: the user's answer to the prompt shown for `app`.
    public func answerRecordPermission(for app: AppID, granted: Bool) throws(SessionError) {
        try expectDone(connection.request(.answerPermission(app, granted: granted)))
    }

    /// T1: the device's shell moves an app to the foreground or the background (D3, D5, A4).
    public func setAppState(of app: AppID, _ state: AppState) throws(SessionError) {
        try expectDone(connection.request(.setAppState(app, state)))
    }

    /// A fresh device of this profile and duck level; refused while apps are connected.
    public func reset(profile: DeviceProfile, duckLevel: Double) throws(SessionError) {
        try expectDone(connection.request(.reset(profile, duckLevel: duckLevel)))
    }

    /// From now on, every notification to every app arrives as an `observed` event.
    public func subscribe() throws(SessionError) {
        try expectDone(connection.request(.subscribe))
    }

    /// The device, its ports and every connected app.
    public func snapshot() throws(SessionError) -> DeviceSnapshot {
        switch try connection.request(.deviceStatus) {
        case .device(let snapshot): return snapshot
        case .failed(let error): throw error
        default: throw SessionError(.unspecified, "the daemon answered a device request with something else")
        }
    }

    /// Returns after every event sent to this connection so far has been handed to `onEvent`.
    public func waitForPendingEvents() throws(SessionError) {
        try connection.flush()
        eventQueue.sync {}
    }

    /// Ends the connection.
    public func close() { connection.close() }

    private func expectDone(_ reply: Reply) throws(SessionError) {
        switch reply {
        case .done: return
        case .failed(let error): throw error
        default: throw SessionError(.unspecified, "the daemon answered with something unexpected")
        }
    }
}
