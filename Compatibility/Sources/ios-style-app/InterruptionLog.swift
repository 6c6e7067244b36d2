// Imports AVFAudio alone, as an iOS file may: ObservableObject, @Published, AnyCancellable and
// NotificationCenter's publisher come with it, as Apple's Foundation brings them (issue 41).
import AVFAudio

final class InterruptionLog: ObservableObject {
    @Published private(set) var entries: [String] = []
    private var cancellables = Set<AnyCancellable>()

    init() {
        NotificationCenter.default.publisher(for: AVAudioSession.interruptionNotification)
            .compactMap { $0.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt }
            .compactMap { AVAudioSession.InterruptionType(rawValue: $0) }
            .sink { [weak self] type in self?.entries.append(type == .began ? "began" : "ended") }
            .store(in: &cancellables)
    }
}
