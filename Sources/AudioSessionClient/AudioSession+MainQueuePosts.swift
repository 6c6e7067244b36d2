import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// N4: the thread each notification is posted on, as on iOS. `interruptionNotification`, the
/// media-services notifications and `silenceSecondaryAudioHintNotification` are posted on the
/// main queue — a handler may schedule a `Timer` there, touch main-thread state and call the
/// session; the others (route changes, the output volume) on the session's event queue, which is
/// not the main thread. N2's order holds across the two: a post waits for those before it, so a
/// route change that follows an interruption is posted after the interruption's observers ran.
/// An app whose main thread never serves the main queue hears nothing posted there (as on iOS);
/// so that the event queue's own posts do not wait for it forever, they wait at most
/// `mainQueueWait` for a main-queue post before them. Only the posts (NotificationCenter and
/// AVAudioSession's delegate) move: handlers and streams are called on the event queue as before.
extension AudioSession {
    /// Whether a notification's post goes to the main queue (N4).
    public static func postsOnMainQueue(_ notification: SessionNotification) -> Bool {
        switch notification {
        case .interruptionBegan, .interruptionEnded, .mediaServicesLost, .mediaServicesReset, .silenceSecondaryAudioHint: true
        case .routeChange, .outputVolume, .recordPermission: false
        }
    }

    /// The posts not yet made, in N2's order; whether one is on the main queue now (by its number).
    struct Posts {
        var waiting: [(onMain: Bool, post: @Sendable () -> Void)] = []
        var onMainQueue: UInt64?
        var next: UInt64 = 0
        /// Main-queue posts handed over and not yet made.
        var inFlight = 0
    }

    /// Replaces the poster given at init (a layer that posts its own: AVFAudio, with its session
    /// as the object and its delegate told). It is called as N4 says.
    package func replacePoster(_ poster: @escaping Poster) {
        state.withLock {
            $0.replacedPoster = poster
            $0.callsPoster = true
        }
    }

    /// Posts a notification by the poster, on the thread N4 gives it, in order. On the event queue.
    func post(_ notification: SessionNotification) {
        guard let poster = state.withLock({ $0.replacedPoster }) ?? poster else { return }
        let onMain = Self.postsOnMainQueue(notification)
        state.withLock { $0.posts.waiting.append((onMain, { [self] in poster(self, notification) })) }
        drainPosts()
    }

    /// Makes the waiting posts that may be made now. On the event queue.
    private func drainPosts() {
        while let (onMain, post, number) = state.withLock({ state -> (Bool, @Sendable () -> Void, UInt64)? in
            guard state.posts.onMainQueue == nil, !state.posts.waiting.isEmpty else { return nil }
            let (onMain, post) = state.posts.waiting.removeFirst()
            guard onMain else { return (false, post, 0) }
            state.posts.next += 1
            state.posts.onMainQueue = state.posts.next
            state.posts.inFlight += 1
            return (true, post, state.posts.next)
        }) {
            guard onMain else {
                post()
                continue
            }
            let done: @Sendable () -> Void = { [weak self] in
                guard let self else { return }
                eventQueue.async {
                    let current = self.state.withLock { state -> Bool in
                        guard state.posts.onMainQueue == number else { return false }
                        state.posts.onMainQueue = nil
                        return true
                    }
                    if current { self.drainPosts() }
                }
            }
            let job: @Sendable () -> Void = { [weak self] in
                post()
                self?.state.withLock { $0.posts.inFlight -= 1 }
                done()
            }
            // Foundation's main OperationQueue where the layer above has it: in its jobs an
            // observer added with `queue: .main` is called in place (from DispatchQueue.main's,
            // Foundation's post would wait for the main queue it runs on).
            if let submit = Self.mainQueueSubmit.withLock({ $0 }) { submit(job) } else { DispatchQueue.main.async(execute: job) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.mainQueueWait, execute: done)
            return
        }
    }

    /// Submits a job to the main queue through Foundation's main OperationQueue (set with
    /// `mainRunLoopTurn`); nil: DispatchQueue.main.
    package static let mainQueueSubmit = Mutex<(@Sendable (@escaping @Sendable () -> Void) -> Void)?>(nil)

    /// Whether posts of this session's notifications are still to be made (N4: some wait for the
    /// main queue). An app driving itself from async code awaits until this is false.
    public var hasPendingPosts: Bool {
        state.withLock { $0.posts.inFlight > 0 || !$0.posts.waiting.isEmpty }
    }

    /// One short turn of the main run loop, which serves the main queue (set by the layer that
    /// has Foundation: `AudioSession`'s initializers, AVAudioSession's).
    package static let mainRunLoopTurn = Mutex<(@Sendable () -> Void)?>(nil)

    /// `waitForPendingNotifications`: until the main-queue posts handed over have been made (at
    /// most `seconds`: a main queue nobody serves is not waited for longer). Called on the main
    /// thread, it turns the main run loop meanwhile, as the app's own would when it returns to it.
    func waitForMainQueuePosts(seconds: Double = 2) {
        // On the main thread, the main run loop is turned; in a main-queue job elsewhere (under
        // dispatchMain) nothing can run them until the caller returns.
        let onMain = Self.isMainThread
        let turn = Self.mainRunLoopTurn.withLock { $0 }
        if (onMain && turn == nil) || (!onMain && Self.isOnMainQueue) { return }
        var waited = 0.0
        while hasPendingPosts, waited < seconds {
            if onMain, let turn {
                turn()
                waited += 0.005
            } else {
                usleep(2_000)
                waited += 0.002
            }
            eventQueue.sync {}
        }
    }
}
