import AVFoundation

/// An ObservableObject that imports only AVFoundation, as iOS code does (Apple's Foundation
/// brings Combine): `@Published` state set from a route-change notification.
final class RouteModel: ObservableObject {
    @Published private(set) var outputName = ""
    private var cancellables = Set<AnyCancellable>()

    init(session: AVAudioSession = .sharedInstance()) {
        outputName = session.currentRoute.outputs.first?.portName ?? ""
        NotificationCenter.default.publisher(for: AVAudioSession.routeChangeNotification)
            .compactMap { _ in session.currentRoute.outputs.first?.portName }
            .sink { [weak self] name in self?.outputName = name }
            .store(in: &cancellables)
    }
}
