import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Bursts (a fan-out to a thousand apps, a client reading slowly) leave freed memory in malloc's
/// arenas, where it would count in the daemon's RSS for good; it goes back to the system 2 s
/// after activity (found by the soak command: without it the RSS kept each burst's high-water
/// mark). Only after activity: an idle daemon does not wake at all. A queue of its own, so no
/// event loop waits while the arenas are walked. glibc's `malloc_trim` is looked up at run time
/// (Glibc's module map leaves malloc.h out; another C library may not have it, and then nothing
/// is done).
final class MemoryTrimmer: Sendable {
    static let delay = DispatchTimeInterval.seconds(2)

    private let trim: (@convention(c) (Int) -> Int32)?
    private let queue = DispatchQueue(label: "audiosessiond.trim")
    private let scheduled = Atomic<Bool>(false)

    init() {
        trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
            unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
        }
    }

    /// Something happened: a trim follows in 2 s, unless one is already due.
    @Sendable func noteActivity() {
        guard let trim, !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.asyncAfter(deadline: .now() + Self.delay) { [self] in
            scheduled.store(false, ordering: .releasing)
            _ = trim(0)
        }
    }
}
