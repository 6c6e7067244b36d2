import AudioSession
import Foundation

/// The app's audio-wide state: record permission, the iOS 17 way.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    private static let sharedApplication = AVAudioApplication()

    /// The app's instance.
    open class var shared: AVAudioApplication { sharedApplication }

    /// P1 values with Apple's four-character codes. (Apple's SDK spells the type in lower camel case.)
    // swift-format-ignore: TypeNamesShouldBeCapitalized
    public enum recordPermission: Int, Sendable {
        case undetermined = 1_970_168_948
        case denied = 1_684_369_017
        case granted = 1_735_552_628
    }

    /// P1: the app's record permission.
    open var recordPermission: recordPermission {
        AVAudioApplication.recordPermission(rawValue: Int(AudioSession.shared.recordPermission.rawValue)) ?? .undetermined
    }

    /// P2: asks once; returns the answer.
    open class func requestRecordPermission() async -> Bool {
        await AudioSession.shared.requestRecordPermission()
    }

    /// P2: asks once; `response` runs with the answer.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        Task { response(await AudioSession.shared.requestRecordPermission()) }
    }
}
