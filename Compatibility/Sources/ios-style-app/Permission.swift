import AVFoundation

/// Record permission, old style (completion handler) and new style (async).
enum Permission {
    static func askTheOldWay(_ done: @escaping (Bool) -> Void) {
        AVAudioSession.sharedInstance().requestRecordPermission { granted in
            done(granted)
        }
    }

    static func askTheNewWay() async -> Bool {
        await AVAudioApplication.requestRecordPermission()
    }

    static var isGranted: Bool {
        AVAudioApplication.shared.recordPermission == .granted
            && AVAudioSession.sharedInstance().recordPermission == .granted
    }
}
