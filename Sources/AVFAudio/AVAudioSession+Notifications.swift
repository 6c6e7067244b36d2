import AudioSession
import AudioSessionModel
import Foundation

extension AVAudioSession {
    public static let interruptionNotification = AudioSession.interruptionNotification
    public static let routeChangeNotification = AudioSession.routeChangeNotification
    public static let mediaServicesWereLostNotification = AudioSession.mediaServicesWereLostNotification
    public static let mediaServicesWereResetNotification = AudioSession.mediaServicesWereResetNotification
    public static let silenceSecondaryAudioHintNotification = AudioSession.silenceSecondaryAudioHintNotification

    /// Posts a notification as iOS does: the library's name and userInfo (`UInt` values for
    /// enums and options), this session as the object, and the previous route as an
    /// `AVAudioSessionRouteDescription`.
    func post(_ notification: SessionNotification) {
        switch notification {
        case .outputVolume, .recordPermission: return  // KVO and completion handlers on iOS
        default: break
        }
        var (name, userInfo) = AudioSession.post(notification)
        if let previous = userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? Route {
            userInfo[AVAudioSessionRouteChangePreviousRouteKey] = AVAudioSessionRouteDescription(previous, session: nil)
        }
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}

public let AVAudioSessionInterruptionTypeKey = AudioSession.UserInfoKey.interruptionType
public let AVAudioSessionInterruptionOptionKey = AudioSession.UserInfoKey.interruptionOptions
public let AVAudioSessionInterruptionReasonKey = AudioSession.UserInfoKey.interruptionReason
public let AVAudioSessionRouteChangeReasonKey = AudioSession.UserInfoKey.routeChangeReason
public let AVAudioSessionRouteChangePreviousRouteKey = AudioSession.UserInfoKey.routeChangePreviousRoute
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey = AudioSession.UserInfoKey.silenceSecondaryAudioHintType
