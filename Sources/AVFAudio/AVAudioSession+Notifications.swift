import AudioSession
import AudioSessionModel
import Foundation

extension AVAudioSession {
    public static let interruptionNotification = AudioSession.interruptionNotification
    public static let routeChangeNotification = AudioSession.routeChangeNotification
    public static let mediaServicesWereLostNotification = AudioSession.mediaServicesWereLostNotification
    public static let mediaServicesWereResetNotification = AudioSession.mediaServicesWereResetNotification
    public static let silenceSecondaryAudioHintNotification = AudioSession.silenceSecondaryAudioHintNotification
    /// Posted after a route change that changed `availableInputs` (a microphone came or went).
    public static let availableInputsChangeNotification = Notification.Name("AVAudioSessionAvailableInputsChangeNotification")
    /// Never posted: no output here is spatialised, so the capability never changes.
    public static let spatialPlaybackCapabilitiesChangedNotification = Notification.Name(
        "AVAudioSessionSpatialPlaybackCapabilitiesChangedNotification")
    /// Never posted: `renderingMode` is always `monoStereo` here.
    public static let renderingModeChangeNotification = Notification.Name("AVAudioSessionRenderingModeChangeNotification")
    /// Never posted: the rendering capabilities never change here.
    public static let renderingCapabilitiesChangeNotification = Notification.Name(
        "AVAudioSessionRenderingCapabilitiesChangeNotification")

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
        // A route change may change the inputs: the session is read once, outside any lock, for
        // both `availableInputsChangeNotification` and the delegate.
        var inputAvailabilityChange: Bool?  // the new value, when it changed
        if case .routeChange = notification, let status = try? session.status() {
            let inputs = status.availableInputs.map(\.uid)
            let (inputsChanged, availabilityChanged) = extras.withLock { extras in
                defer {
                    extras.availableInputs = inputs
                    extras.inputAvailable = status.isInputAvailable
                }
                return (
                    extras.availableInputs.map { $0 != inputs } ?? false,
                    extras.inputAvailable.map { $0 != status.isInputAvailable } ?? false
                )
            }
            if inputsChanged { NotificationCenter.default.post(name: Self.availableInputsChangeNotification, object: self) }
            if availabilityChanged { inputAvailabilityChange = status.isInputAvailable }
        }
        tellDelegate(notification, inputAvailabilityChange: inputAvailabilityChange)
    }
}

public let AVAudioSessionInterruptionTypeKey = AudioSession.UserInfoKey.interruptionType
public let AVAudioSessionInterruptionOptionKey = AudioSession.UserInfoKey.interruptionOptions
public let AVAudioSessionInterruptionReasonKey = AudioSession.UserInfoKey.interruptionReason
public let AVAudioSessionRouteChangeReasonKey = AudioSession.UserInfoKey.routeChangeReason
public let AVAudioSessionRouteChangePreviousRouteKey = AudioSession.UserInfoKey.routeChangePreviousRoute
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey = AudioSession.UserInfoKey.silenceSecondaryAudioHintType
public let AVAudioSessionSpatialAudioEnabledKey = "AVAudioSessionSpatializationEnabledKey"
public let AVAudioSessionRenderingModeNewRenderingModeKey = "AVAudioSessionRenderingModeNewRenderingModeKey"
/// Never present: apps are not suspended by this system, so no interruption is the result of it.
public let AVAudioSessionInterruptionWasSuspendedKey = "AVAudioSessionInterruptionWasSuspendedKey"
