import AudioSession
import Dispatch

/// Hands a session's notifications to a player's or recorder's queue, in order, for as long as
/// it lives — as a sound object's handler, before the app's own handlers: what an app reads of the
/// player in its handler (`isPlaying`, through the same queue) is then what the notification did
/// to it (I1: paused by an interruption), whichever was made first.
final class NotificationForwarder: Sendable {
    private let session: AudioSession
    private let token: NotificationHandlerToken

    init(session: AudioSession, queue: DispatchQueue, _ handle: @escaping @Sendable (SessionNotification) -> Void) {
        self.session = session
        token = session.addSoundObjectHandler { notification in queue.async { handle(notification) } }
    }

    deinit { session.removeNotificationHandler(token) }
}
