// A podcast app's queue screen: the class here, its notification plumbing in
// EpisodeQueue+Observing.swift, as the app keeps one concern per file.
import AVFoundation

public final class EpisodeQueue: NSObject {
    public internal(set) var pausedForInterruption = 0
    public internal(set) var routeChecks = 0

    public override init() {
        super.init()
        observeSession()
    }
}
