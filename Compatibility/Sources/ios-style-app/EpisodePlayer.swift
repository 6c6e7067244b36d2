import AVFoundation
import MediaPlayer

/// An iOS podcast player's Now Playing information and remote commands, written the way iOS
/// apps write them (issue 41). On a Linux desktop the same code makes it an MPRIS player: the
/// shell's media controls, media keys and playerctl show it and send it these commands.
final class EpisodePlayer {
    let episodes = ["Pilot", "Second Wind", "Third Time"]
    let duration: TimeInterval = 1800
    private(set) var episode = 0
    private(set) var isPlaying = false
    private(set) var position: TimeInterval = 0
    /// What the remote commands asked, in order (`play`, `pause`, `next 1`, `seek 600`).
    var onCommand: (String) -> Void = { _ in }

    init() {
        let commands = MPRemoteCommandCenter.shared()
        commands.playCommand.addTarget { [unowned self] _ in
            self.play()
            return .success
        }
        commands.pauseCommand.addTarget { [unowned self] _ in
            self.pause()
            return .success
        }
        commands.togglePlayPauseCommand.addTarget { [unowned self] _ in
            if self.isPlaying { self.pause() } else { self.play() }
            return .success
        }
        commands.nextTrackCommand.addTarget { [unowned self] _ in
            guard self.episode + 1 < self.episodes.count else { return .noSuchContent }
            self.episode += 1
            self.position = 0
            self.onCommand("next \(self.episode)")
            self.publish()
            return .success
        }
        commands.changePlaybackPositionCommand.addTarget { [unowned self] event in
            guard let event = event as? MPChangePlaybackPositionCommandEvent else { return .commandFailed }
            self.position = event.positionTime
            self.onCommand("seek \(Int(event.positionTime))")
            self.publish()
            return .success
        }
        commands.changeRepeatModeCommand.addTarget { [unowned self] event in
            guard let event = event as? MPChangeRepeatModeCommandEvent else { return .commandFailed }
            commands.changeRepeatModeCommand.currentRepeatType = event.repeatType
            self.onCommand("repeat \(event.repeatType.rawValue)")
            return .success
        }
        commands.changeShuffleModeCommand.addTarget { [unowned self] event in
            guard let event = event as? MPChangeShuffleModeCommandEvent else { return .commandFailed }
            commands.changeShuffleModeCommand.currentShuffleType = event.shuffleType
            self.onCommand("shuffle \(event.shuffleType.rawValue)")
            return .success
        }
        commands.changePlaybackRateCommand.supportedPlaybackRates = [0.75, 1, 1.5, 2]
        commands.changePlaybackRateCommand.addTarget { [unowned self] event in
            guard let event = event as? MPChangePlaybackRateCommandEvent else { return .commandFailed }
            self.onCommand("rate \(event.playbackRate)")
            return .success
        }
        commands.previousTrackCommand.isEnabled = false
    }

    func play() {
        let session = AVAudioSession.sharedInstance()
        try? session.setCategory(.playback, mode: .spokenAudio)
        try? session.setActive(true)
        isPlaying = true
        onCommand("play")
        publish()
    }

    func pause() {
        isPlaying = false
        onCommand("pause")
        publish()
    }

    /// The Now Playing information: the rate says whether it plays.
    func publish() {
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [
            MPMediaItemPropertyTitle: episodes[episode],
            MPMediaItemPropertyArtist: "The Example Show",
            MPMediaItemPropertyAlbumTitle: "Season 1",
            MPMediaItemPropertyPlaybackDuration: duration,
            MPNowPlayingInfoPropertyElapsedPlaybackTime: position,
            MPNowPlayingInfoPropertyPlaybackRate: isPlaying ? 1.0 : 0.0,
        ]
    }
}
