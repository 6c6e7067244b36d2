import Foundation
import PulseBackend
import Synchronization

@Sendable func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The server's account of the foreign streams, as a separate libpulse connection hears it
/// (subscription event, then the stream's info): when a stream's volume last changed, and when
/// a `media.role=phone` stream was first heard of. What both sides of the benchmark call
/// "acknowledged by the server".
final class Observer: Sendable {
    struct Seen {
        var volume: UInt32?
        var volumeTime: UInt64 = 0
        var phones: Set<UInt32> = []
        var phoneTime: UInt64 = 0
    }

    private final class Shared: Sendable {
        let seen = Mutex(Seen())
    }

    private let shared = Shared()
    private let server: PulseServer

    init(address: String, watching role: String) throws {
        let shared = self.shared
        server = try PulseServer(server: address) { event in
            let time = now()
            switch event {
            case .streamPresent(let stream) where stream.isForeign && !stream.isRecord:
                shared.seen.withLock { seen in
                    if stream.properties["media.role"] == "phone" {
                        if seen.phones.insert(stream.index).inserted { seen.phoneTime = time }
                    } else if stream.properties["media.role"] == role, let volume = stream.volume, volume != seen.volume {
                        (seen.volume, seen.volumeTime) = (volume, time)
                    }
                }
            case .streamRemoved(let index, false):
                shared.seen.withLock { _ = $0.phones.remove(index) }
            default:
                break
            }
        }
    }

    /// Polls (every 20 µs, at most 5 s) until `condition` holds; returns the state then.
    func waitFor(_ condition: (Seen) -> Bool) -> Seen? {
        let deadline = now() + 5_000_000_000
        while now() < deadline {
            let state = shared.seen.withLock { $0 }
            if condition(state) { return state }
            usleep(20)
        }
        return nil
    }

    func close() { server.close() }
}
