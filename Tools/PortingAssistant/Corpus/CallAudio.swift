// A VoIP SDK's iOS audio module: preferences with an NSError catch, a handler without
// parameters registered in a method, and a handler on a line of its own.
import AVFoundation

class CallAudio {
    var restarts = 0
    var failures: [Int] = []

    func start() {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetoothHFP, .defaultToSpeaker])
            try session.setPreferredSampleRate(16_000)
            try session.setPreferredIOBufferDuration(0.01)
            try session.setActive(true)
        } catch let e as NSError {
            failures.append(e.code)
        }
        NotificationCenter.default.addObserver(self, selector: #selector(mediaServicesReset), name: AVAudioSession.mediaServicesWereResetNotification, object: nil)
    }

    func stop() {
        NotificationCenter.default.removeObserver(self)
        try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }

    @objc
    func mediaServicesReset() {
        restarts += 1
        start()
    }
}
