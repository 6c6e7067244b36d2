import AudioSession
import AudioSessionEngine
import Foundation

extension AVAudioSession {
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    public static let silenceSecondaryAudioHintNotification = Notification.Name(
        "AVAudioSessionSilenceSecondaryAudioHintNotification")

    /// Posts a notification as iOS does: Apple's name, this session as the object, `UInt`
    /// values for enums and options, an `AVAudioSessionRouteDescription` as the previous route.
    func post(_ notification: SessionNotification) {
        let name: Notification.Name
        var userInfo: [AnyHashable: Any] = [:]
        switch notification {
        case .interruptionBegan(let reason):
            name = Self.interruptionNotification
            userInfo[AVAudioSessionInterruptionTypeKey] = InterruptionType.began.rawValue
            userInfo[AVAudioSessionInterruptionReasonKey] = UInt(reason.rawValue)
        case .interruptionEnded(let shouldResume):
            name = Self.interruptionNotification
            userInfo[AVAudioSessionInterruptionTypeKey] = InterruptionType.ended.rawValue
            userInfo[AVAudioSessionInterruptionOptionKey] = shouldResume ? InterruptionOptions.shouldResume.rawValue : 0
        case .routeChange(let reason, let previous, _):
            name = Self.routeChangeNotification
            userInfo[AVAudioSessionRouteChangeReasonKey] = UInt(reason.rawValue)
            userInfo[AVAudioSessionRouteChangePreviousRouteKey] = AVAudioSessionRouteDescription(previous, session: nil)
        case .silenceSecondaryAudioHint(let type):
            name = Self.silenceSecondaryAudioHintNotification
            userInfo[AVAudioSessionSilenceSecondaryAudioHintTypeKey] = UInt(type.rawValue)
        case .mediaServicesLost: name = Self.mediaServicesWereLostNotification
        case .mediaServicesReset: name = Self.mediaServicesWereResetNotification
        case .outputVolume, .recordPermission: return  // KVO and completion handlers on iOS
        }
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}

public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
public let AVAudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
