import AVFoundation

/// Pause when the headphones go away, as an iOS app writes it.
final class HeadphoneWatcher {
    private(set) var pausedBecauseHeadphonesLeft = false
    private(set) var reasons: [AVAudioSession.RouteChangeReason] = []

    init() {
        NotificationCenter.default.addObserver(
            forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil
        ) { [weak self] notification in
            self?.handleRouteChange(notification)
        }
    }

    private func handleRouteChange(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
            let reasonValue = userInfo[AVAudioSessionRouteChangeReasonKey] as? UInt,
            let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue)
        else { return }
        reasons.append(reason)
        switch reason {
        case .oldDeviceUnavailable:
            if let previousRoute = userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription {
                for output in previousRoute.outputs where output.portType == .headphones {
                    pausedBecauseHeadphonesLeft = true
                }
            }
        default:
            break
        }
    }

    var headphonesConnected: Bool {
        AVAudioSession.sharedInstance().currentRoute.outputs.contains { $0.portType == AVAudioSession.Port.headphones }
    }
}
