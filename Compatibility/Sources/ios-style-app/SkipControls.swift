import MediaPlayer

/// A music app's skip buttons as written for iOS, in a file that imports only MediaPlayer: the
/// session (AVAudioSession) and the time (CMTime) come with it, as on iOS.
enum SkipControls {
    /// Where a skip of `interval` seconds from `position` lands, clamped to the track, as a seek
    /// handler computes it.
    static func target(from position: Double, by interval: Double, duration: Double) -> CMTime {
        let now = CMTimeMakeWithSeconds(position, preferredTimescale: 600)
        let step = CMTime(seconds: interval, preferredTimescale: CMTimeScale(NSEC_PER_SEC))
        let end = CMTimeMakeWithSeconds(duration, preferredTimescale: 600)
        return CMTimeMaximum(.zero, CMTimeMinimum(CMTimeAdd(now, step), end))
    }

    static var isPlaybackSession: Bool {
        AVAudioSession.sharedInstance().category == .playback
    }
}
