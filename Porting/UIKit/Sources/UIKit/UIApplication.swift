import AudioSession
import Foundation

/// UIKit's app object (the UIKit package, Porting/UIKit), as much as ported audio code uses: its state and the notifications of its
/// changes, remote-control events (Now Playing's commands come through MediaPlayer's
/// MPRemoteCommandCenter on MPRIS here, so beginning and ending them does nothing), and the idle
/// timer switch (kept; there is no screen to keep awake). Nothing of windows, scenes or URLs.
///
/// The state follows the app's own `AudioSession.setApplicationState` (D3, D5, A4: there is no
/// system here that moves an app to the background; a Linux app says so itself): foreground →
/// background posts `willResignActiveNotification` then `didEnterBackgroundNotification`; back,
/// `willEnterForegroundNotification` then `didBecomeActiveNotification` — on the main queue, in
/// that order, as iOS posts them.
///
/// Main-actor isolated as Apple's is, and `@preconcurrency` as Apple's Objective-C classes are
/// imported: Swift 5 code calling it from a class's `init` builds as it does for iOS (a warning
/// at most); Swift 6 code gets the main actor's checks.
@preconcurrency @MainActor
open class UIApplication: NSObject {
    /// The app.
    public static let shared = UIApplication()

    public enum State: Int, Sendable {
        case active, inactive, background
    }

    // (Any use of a notification's name, or of `shared`, has the notifications follow the app's state.)
    public nonisolated static let didEnterBackgroundNotification = following("UIApplicationDidEnterBackgroundNotification")
    public nonisolated static let willEnterForegroundNotification = following("UIApplicationWillEnterForegroundNotification")
    public nonisolated static let didBecomeActiveNotification = following("UIApplicationDidBecomeActiveNotification")
    public nonisolated static let willResignActiveNotification = following("UIApplicationWillResignActiveNotification")
    public nonisolated static let willTerminateNotification = following("UIApplicationWillTerminateNotification")

    /// `.active` until the app says it went to the background (`AudioSession.setApplicationState`).
    public var applicationState: State {
        AudioSession.applicationState == .foreground ? .active : .background
    }

    /// Kept and read back: there is no screen to keep awake.
    public var isIdleTimerDisabled = false

    /// Nothing to do here: Now Playing's commands reach MPRemoteCommandCenter through MPRIS.
    public func beginReceivingRemoteControlEvents() {}

    /// Nothing to do here (see `beginReceivingRemoteControlEvents`).
    public func endReceivingRemoteControlEvents() {}

    override private init() {
        _ = Self.follows
        super.init()
    }

    /// Registers the notifications' follower once.
    private nonisolated static let follows: Void = AudioSession.followApplicationState { UIApplication.post(for: $0) }

    private nonisolated static func following(_ name: String) -> Notification.Name {
        _ = follows
        return Notification.Name(name)
    }

    /// The notifications of a change of the app's state, on the main queue, in iOS's order.
    nonisolated static func post(for state: AppState) {
        let names =
            state == .background
            ? [willResignActiveNotification, didEnterBackgroundNotification]
            : [willEnterForegroundNotification, didBecomeActiveNotification]
        // An operation of the main queue, not a block: Foundation's NotificationCenter here runs an
        // observer of queue `.main` at once only when posted from the main OperationQueue; posted
        // from a DispatchQueue.main block it queues the observer and waits for it — on itself.
        OperationQueue.main.addOperation {
            MainActor.assumeIsolated {
                for name in names { NotificationCenter.default.post(name: name, object: UIApplication.shared) }
            }
        }
    }
}
