import Foundation

/// The remote commands (iOS's Control Center, lock screen, headset buttons): on a Linux desktop
/// the same requests come over MPRIS — the shell's media controls, media keys, Bluetooth headset
/// buttons (mpris-proxy), KDE Connect, playerctl. Giving a command a handler makes the app an
/// MPRIS player on the user's session bus (`MPRISService`).
public final class MPRemoteCommandCenter: @unchecked Sendable {
    private static let center = MPRemoteCommandCenter()
    public static func shared() -> MPRemoteCommandCenter { center }

    let service = MPRISService.shared

    private init() {
        let changed: @Sendable () -> Void = { MPRISService.shared.commandsChanged() }
        playCommand = MPRemoteCommand(changed: changed)
        pauseCommand = MPRemoteCommand(changed: changed)
        stopCommand = MPRemoteCommand(changed: changed)
        togglePlayPauseCommand = MPRemoteCommand(changed: changed)
        nextTrackCommand = MPRemoteCommand(changed: changed)
        previousTrackCommand = MPRemoteCommand(changed: changed)
        changeRepeatModeCommand = MPChangeRepeatModeCommand(changed: changed)
        changeShuffleModeCommand = MPChangeShuffleModeCommand(changed: changed)
        seekForwardCommand = MPRemoteCommand(changed: changed)
        seekBackwardCommand = MPRemoteCommand(changed: changed)
        skipForwardCommand = MPSkipIntervalCommand(changed: changed)
        skipBackwardCommand = MPSkipIntervalCommand(changed: changed)
        changePlaybackRateCommand = MPChangePlaybackRateCommand(changed: changed)
        changePlaybackPositionCommand = MPChangePlaybackPositionCommand(changed: changed)
        likeCommand = MPFeedbackCommand(changed: changed)
        dislikeCommand = MPFeedbackCommand(changed: changed)
        bookmarkCommand = MPFeedbackCommand(changed: changed)
        enableLanguageOptionCommand = MPRemoteCommand(changed: changed)
        disableLanguageOptionCommand = MPRemoteCommand(changed: changed)
    }

    public let playCommand: MPRemoteCommand
    public let pauseCommand: MPRemoteCommand
    public let stopCommand: MPRemoteCommand
    public let togglePlayPauseCommand: MPRemoteCommand
    public let nextTrackCommand: MPRemoteCommand
    public let previousTrackCommand: MPRemoteCommand
    public let changeRepeatModeCommand: MPChangeRepeatModeCommand
    public let changeShuffleModeCommand: MPChangeShuffleModeCommand
    public let seekForwardCommand: MPRemoteCommand
    public let seekBackwardCommand: MPRemoteCommand
    public let skipForwardCommand: MPSkipIntervalCommand
    public let skipBackwardCommand: MPSkipIntervalCommand
    public let changePlaybackRateCommand: MPChangePlaybackRateCommand
    public let changePlaybackPositionCommand: MPChangePlaybackPositionCommand
    public let likeCommand: MPFeedbackCommand
    public let dislikeCommand: MPFeedbackCommand
    public let bookmarkCommand: MPFeedbackCommand
    public let enableLanguageOptionCommand: MPRemoteCommand
    public let disableLanguageOptionCommand: MPRemoteCommand
}

/// The Now Playing information: what the desktop's media controls show. Setting it makes the
/// app an MPRIS player on the user's session bus (`MPRISService`).
public final class MPNowPlayingInfoCenter: @unchecked Sendable {
    private static let center = MPNowPlayingInfoCenter()
    public static func `default`() -> MPNowPlayingInfoCenter { center }

    private init() {}

    /// Title, artist, duration, elapsed time and rate… (`MPMediaItemProperty…`,
    /// `MPNowPlayingInfoProperty…` keys); `nil` clears it.
    public var nowPlayingInfo: [String: Any]? {
        get { MPRISService.shared.nowPlayingInfo }
        set { MPRISService.shared.setNowPlayingInfo(newValue) }
    }

    /// What the app says of its playback; `.unknown` (the default): the rate says it.
    public var playbackState: MPNowPlayingPlaybackState {
        get { MPRISService.shared.playbackState }
        set { MPRISService.shared.setPlaybackState(newValue) }
    }
}
