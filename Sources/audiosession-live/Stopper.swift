import Dispatch
import Foundation
import Synchronization

/// How the live view stops. The first SIGINT or SIGTERM (or the daemon's going away, with
/// `--exit-with-daemon`) ends every page's event stream with `event: stopped` and shuts the
/// server down gracefully — nothing is left for it to wait for; if it still has not stopped
/// after `deadline` seconds the process exits anyway. A second signal exits at once.
final class Stopper: Sendable {
    enum Reason: Sendable, Equatable {
        case signal(Int32)
        case daemonGone
    }

    private let feed: EventFeed
    private let server: PageServer
    private let deadline: Double
    private let requests = Mutex<[Reason]>([])
    private let queue = DispatchQueue(label: "audiosession-live.signals")
    /// Made once and resumed once, by `handleSignals()`; kept so they live as long as the stopper.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    init(feed: EventFeed, server: PageServer, deadline: Double = 0.9) {
        self.feed = feed
        self.server = server
        self.deadline = deadline
        let queue = queue
        sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
    }

    /// Why it stopped, once it has been asked to.
    var reason: Reason? { requests.withLock { $0.first } }

    /// SIGINT and SIGTERM stop the live view from now on.
    func handleSignals() {
        for (number, source) in zip([SIGINT, SIGTERM], sources) {
            signal(number, SIG_IGN)
            source.setEventHandler { [weak self] in self?.stop(.signal(number)) }
            source.resume()
        }
    }

    func stop(_ reason: Reason) {
        let count = requests.withLock { requests in
            requests.append(reason)
            return requests.count
        }
        if count > 1 {
            if case .signal = reason { exit(130) }  // asked twice: at once
            return
        }
        let feed = feed
        let server = server
        Task {
            await feed.stopAll()
            server.shutdown()
        }
        queue.asyncAfter(deadline: .now() + deadline) {
            FileHandle.standardError.write(Data("audiosession live: the server did not stop in time; exiting\n".utf8))
            exit(reason == .daemonGone ? 1 : 0)
        }
    }
}
