import AVFoundation
import Combine

/// The session as an ObservableObject, as SwiftUI-era iOS code wraps it: Combine publishers on
/// NotificationCenter, @Published state. Builds unchanged: `import Combine` is OpenCombine here.
final class SessionStateModel: ObservableObject {
    @Published private(set) var isInterrupted = false
    @Published private(set) var routeChanges: [AVAudioSession.RouteChangeReason] = []
    private(set) var changesAnnounced = 0
    private var cancellables = Set<AnyCancellable>()

    init() {
        NotificationCenter.default.publisher(for: AVAudioSession.interruptionNotification)
            .compactMap { $0.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt }
            .compactMap { AVAudioSession.InterruptionType(rawValue: $0) }
            .map { $0 == .began }
            .sink { [weak self] interrupted in self?.isInterrupted = interrupted }
            .store(in: &cancellables)
        NotificationCenter.default.publisher(for: AVAudioSession.routeChangeNotification)
            .compactMap { $0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt }
            .compactMap { AVAudioSession.RouteChangeReason(rawValue: $0) }
            .sink { [weak self] reason in self?.routeChanges.append(reason) }
            .store(in: &cancellables)
        objectWillChange
            .sink { [weak self] _ in self?.changesAnnounced += 1 }
            .store(in: &cancellables)
    }
}
