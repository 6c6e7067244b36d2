import AVFoundation
import MediaPlayer
import UIKit

/// An iOS radio app's Now Playing controller, written the way iOS apps write it (issue 58): the
/// station's logo from the app's resources as the artwork, remote-control events begun on the
/// app object, and a note when the app goes to the background. On a Linux desktop the same code
/// makes it an MPRIS player whose artwork the shell shows.
final class RadioStation {
    private(set) var isPlaying = false
    /// What happened, in order (`play`, `pause`, `background`).
    var onEvent: (String) -> Void = { _ in }
    private var backgroundObserver: NSObjectProtocol?

    init() {
        UIApplication.shared.beginReceivingRemoteControlEvents()
        let commands = MPRemoteCommandCenter.shared()
        commands.playCommand.addTarget { [unowned self] _ in
            self.play()
            return .success
        }
        commands.pauseCommand.addTarget { [unowned self] _ in
            self.pause()
            return .success
        }
        backgroundObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main
        ) { [weak self] _ in
            self?.onEvent("background")
        }
    }

    func play() {
        let session = AVAudioSession.sharedInstance()
        try? session.setCategory(.playback)
        try? session.setActive(true)
        isPlaying = true
        onEvent("play")
        publish()
    }

    func pause() {
        isPlaying = false
        onEvent("pause")
        publish()
    }

    func publish() {
        var info: [String: Any] = [
            MPMediaItemPropertyTitle: "Morning Show",
            MPMediaItemPropertyArtist: "Example FM",
            MPNowPlayingInfoPropertyIsLiveStream: true,
            MPNowPlayingInfoPropertyPlaybackRate: isPlaying ? 1.0 : 0.0,
        ]
        if let logo = UIImage(named: "station") {
            info[MPMediaItemPropertyArtwork] = MPMediaItemArtwork(boundsSize: logo.size) { _ in logo }
        }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = info
    }
}
