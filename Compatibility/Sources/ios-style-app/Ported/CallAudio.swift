// A VoIP SDK's iOS audio module: preferences with an NSError catch, a handler without
// parameters registered in a method, and a handler on a line of its own.
import AVFoundation

class CallAudio {
    private var audioSessionObservers: [NSObjectProtocol] = []

    deinit {
        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0) }
    }

    var restarts = 0
    var failures: [Int] = []

    func start() {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetoothHFP, .defaultToSpeaker])
            try session.setPreferredSampleRate(16_000)
            try session.setPreferredIOBufferDuration(0.01)
            try session.setActive(true)
        } catch {
            let e = error as NSError
            failures.append(e.code)
        }
        audioSessionObservers.append(NotificationCenter.default.addObserver(forName: AVAudioSession.mediaServicesWereResetNotification, object: nil, queue: nil) { [weak self] _ in self?.mediaServicesReset() })
    }

    func stop() {
        audioSessionObservers.forEach { NotificationCenter.default.removeObserver($0) }; audioSessionObservers.removeAll()
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }

    func mediaServicesReset() {
        restarts += 1
        start()
    }
}
