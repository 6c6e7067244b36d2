// A React Native audio manager's Swift side: key-value observing and a target action — nothing
// here is mechanical; the assistant says what to do instead. (Its Combine and AVKit imports and
// @Published build as they are, with this package's Combine and AVKit products.)
import AVFoundation
import AVKit
import Combine

final class AudioManager: NSObject, ObservableObject {
    @Published var volume: Float = 0
    private var observation: NSKeyValueObservation?

    func watchVolume() {
        observation = AVAudioSession.sharedInstance().observe(\.outputVolume, options: [.new]) { [weak self] session, _ in
            self?.volume = session.outputVolume
        }
    }

    @objc func buttonTapped() {
        perform(#selector(watchVolume))
    }
}
