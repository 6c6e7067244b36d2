import CAudioSessionServices
import Synchronization

/// The live objects of one kind that C holds handles to (queues, units), by handle. A handle is
/// a number, never an address, so a disposed object's handle is refused (kAudio_ParamError)
/// instead of being freed memory; numbers are never reused.
final class CHandles<Object: AnyObject & Sendable>: Sendable {
    private let live: Mutex<(next: UInt, objects: [UInt: Object])>

    /// `first`: where its numbers start, so that the handles of two kinds (an I/O unit's, a
    /// converter unit's) never meet.
    init(first: UInt = 0x10_000) { live = Mutex((first, [:])) }

    /// Makes an object with its new handle and keeps it; returns the handle.
    func add(_ make: (OpaquePointer) -> Object) -> OpaquePointer {
        let number = live.withLock { live in
            live.next += 0x10
            return live.next
        }
        let handle = OpaquePointer(bitPattern: number)!
        let object = make(handle)
        live.withLock { $0.objects[number] = object }
        return handle
    }

    func find(_ handle: OpaquePointer?) throws(CStatus) -> Object {
        guard let handle, let object = live.withLock({ $0.objects[UInt(bitPattern: handle)] }) else {
            throw CStatus(Int(kAudio_ParamError))
        }
        return object
    }

    func remove(_ handle: OpaquePointer?) throws(CStatus) -> Object {
        guard let handle, let object = live.withLock({ $0.objects.removeValue(forKey: UInt(bitPattern: handle)) }) else {
            throw CStatus(Int(kAudio_ParamError))
        }
        return object
    }
}

extension CStatus {
    /// Runs `body`; 0, or the status it threw.
    static func of(_ body: () throws(CStatus) -> Void) -> OSStatus {
        do throws(CStatus) {
            try body()
            return 0
        } catch { return error.value }
    }
}
