import AudioSession
import Foundation
import Synchronization
import Testing
import UIKit

/// Issue 58: UIKit's UIApplication as ported audio code uses it: its state follows the app's own
/// `AudioSession.setApplicationState`, with iOS's notifications in iOS's order on the main queue.
@Suite("UIApplication (issue 58)", .serialized)
struct UIApplicationTests {
    @Test(
        "The state follows setApplicationState: background posts willResignActive then didEnterBackground; foreground willEnterForeground then didBecomeActive; the idle timer switch is kept"
    )
    @MainActor
    func stateAndNotifications() async throws {
        let heard = Mutex<[String]>([])
        let names = [
            UIApplication.willResignActiveNotification, UIApplication.didEnterBackgroundNotification,
            UIApplication.willEnterForegroundNotification, UIApplication.didBecomeActiveNotification,
        ]
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                heard.withLock { $0.append(note.name.rawValue) }
            }
        }
        defer { for token in tokens { NotificationCenter.default.removeObserver(token) } }
        let session = AudioSession(appID: "radio")
        defer { session.close() }
        #expect(UIApplication.shared.applicationState == .active)
        UIApplication.shared.beginReceivingRemoteControlEvents()
        try session.setApplicationState(.background)
        #expect(UIApplication.shared.applicationState == .background)
        try session.setApplicationState(.background)  // the same again: nothing posted
        try session.setApplicationState(.foreground)
        #expect(UIApplication.shared.applicationState == .active)
        for _ in 0..<200 where heard.withLock({ $0.count }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(
            heard.withLock { $0 } == [
                "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
                "UIApplicationWillEnterForegroundNotification", "UIApplicationDidBecomeActiveNotification",
            ])
        UIApplication.shared.isIdleTimerDisabled = true
        #expect(UIApplication.shared.isIdleTimerDisabled)
        UIApplication.shared.endReceivingRemoteControlEvents()
    }
}
