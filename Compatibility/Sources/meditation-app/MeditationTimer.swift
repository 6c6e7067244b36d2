// A meditation app's session timer, as such apps write it: the interruption handler pauses the
// countdown and, when the interruption ends, schedules the progress Timer again on the current
// run loop — which must be the main one (N4: the notification comes on the main thread).
import AVFoundation
import Foundation

final class MeditationTimer {
    private(set) var handlerOnMainThread: [Bool] = []
    private(set) var ticks = 0
    private var timer: Timer?
    private var observer: NSObjectProtocol?

    init() {
        observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.interruptionNotification, object: AVAudioSession.sharedInstance(), queue: nil
        ) { [weak self] note in
            guard let self, let raw = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
                let type = AVAudioSession.InterruptionType(rawValue: raw)
            else { return }
            self.handlerOnMainThread.append(Thread.isMainThread)
            switch type {
            case .began:
                self.timer?.invalidate()
            case .ended:
                self.timer = Timer.scheduledTimer(withTimeInterval: 0.02, repeats: true) { [weak self] _ in self?.ticks += 1 }
            @unknown default:
                break
            }
        }
    }

    deinit {
        timer?.invalidate()
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}
