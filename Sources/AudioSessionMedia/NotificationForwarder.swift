import AudioSession
import Dispatch

/// Hands a session's notifications to a player's or recorder's queue, in order, for as long as
/// it lives.
final class NotificationForwarder: Sendable {
    private let session: AudioSession
    private let token: NotificationHandlerToken

    init(session: AudioSession, queue: DispatchQueue, _ handle: @escaping @Sendable (SessionNotification) -> Void) {
        self.session = session
        token = session.addNotificationHandler { notification in queue.async { handle(notification) } }
    }

    deinit { session.removeNotificationHandler(token) }
}
