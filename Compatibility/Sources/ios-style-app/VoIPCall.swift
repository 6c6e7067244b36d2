import AVFoundation

/// A VoIP set-up with preferences and error handling, as an iOS app writes it.
enum VoIPCall {
    enum Outcome: Equatable {
        case started
        case busy  // a phone call has priority
        case failed(Int)
    }

    static func start() -> Outcome {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetooth, .defaultToSpeaker])
            try session.setPreferredSampleRate(16_000)
            try session.setPreferredIOBufferDuration(0.005)
            try session.setActive(true)
            return .started
        } catch let error as NSError where error.code == AVAudioSession.ErrorCode.insufficientPriority.rawValue {
            return .busy
        } catch {
            // Linux: `catch let error as NSError` is not exhaustive, so the last clause is plain.
            return .failed((error as NSError).code)
        }
    }

    static func end() throws {
        try AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }
}
