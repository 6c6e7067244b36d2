import AudioSessionClient
import CAudioSessionServices
import Synchronization

// The functions of AudioQueueServices.h (SPEC §19 SO4): each finds the queue by its handle,
// checks its arguments and calls CAudioQueue; every error comes back as Apple's OSStatus.

/// The live queues of this process, by handle.
enum CQueues {
    static let live = CHandles<CAudioQueue>()

    static func make(
        _ format: UnsafePointer<AudioStreamBasicDescription>?, _ callback: CAudioQueue.Callback?,
        _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<AudioQueueRef?>?
    ) -> OSStatus {
        CStatus.of { () throws(CStatus) in
            guard let format, let callback, let out else { throw CStatus(Int(kAudio_ParamError)) }
            let pcm = try CPCMFormat(format.pointee)
            out.pointee = live.add { handle in
                CAudioQueue(format: pcm, callback: callback, userData: userData, session: CSession.processSession, handle: handle)
            }
        }
    }

    static func find(_ handle: AudioQueueRef?) throws(CStatus) -> CAudioQueue { try live.find(handle) }
    static func remove(_ handle: AudioQueueRef?) throws(CStatus) -> CAudioQueue { try live.remove(handle) }
    static func status(_ body: () throws(CStatus) -> Void) -> OSStatus { CStatus.of(body) }
}

@_cdecl("AudioQueueNewOutput")
public func cQueueNewOutput(
    _ format: UnsafePointer<AudioStreamBasicDescription>?, _ callback: AudioQueueOutputCallback?,
    _ userData: UnsafeMutableRawPointer?, _ runLoop: OpaquePointer?, _ mode: OpaquePointer?, _ flags: UInt32,
    _ out: UnsafeMutablePointer<AudioQueueRef?>?
) -> OSStatus {
    CQueues.make(format, callback.map { .output($0) }, userData, out)
}

@_cdecl("AudioQueueNewInput")
public func cQueueNewInput(
    _ format: UnsafePointer<AudioStreamBasicDescription>?, _ callback: AudioQueueInputCallback?,
    _ userData: UnsafeMutableRawPointer?, _ runLoop: OpaquePointer?, _ mode: OpaquePointer?, _ flags: UInt32,
    _ out: UnsafeMutablePointer<AudioQueueRef?>?
) -> OSStatus {
    CQueues.make(format, callback.map { .input($0) }, userData, out)
}

@_cdecl("AudioQueueDispose")
public func cQueueDispose(_ queue: AudioQueueRef?, _ immediate: UInt8) -> OSStatus {
    CQueues.status { () throws(CStatus) in try CQueues.remove(queue).dispose() }
}

@_cdecl("AudioQueueAllocateBuffer")
public func cQueueAllocateBuffer(
    _ queue: AudioQueueRef?, _ bytes: UInt32, _ out: UnsafeMutablePointer<AudioQueueBufferRef?>?
) -> OSStatus {
    cQueueAllocateBufferWithPacketDescriptions(queue, bytes, 0, out)
}

@_cdecl("AudioQueueAllocateBufferWithPacketDescriptions")
public func cQueueAllocateBufferWithPacketDescriptions(
    _ queue: AudioQueueRef?, _ bytes: UInt32, _ descriptions: UInt32, _ out: UnsafeMutablePointer<AudioQueueBufferRef?>?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        guard let out else { throw CStatus(Int(kAudio_ParamError)) }
        out.pointee = try CQueues.find(queue).allocateBuffer(bytes: bytes, packetDescriptions: descriptions)
    }
}

@_cdecl("AudioQueueFreeBuffer")
public func cQueueFreeBuffer(_ queue: AudioQueueRef?, _ buffer: AudioQueueBufferRef?) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        guard let buffer else { throw CStatus(Int(kAudioQueueErr_InvalidBuffer)) }
        try CQueues.find(queue).freeBuffer(buffer)
    }
}

@_cdecl("AudioQueueEnqueueBuffer")
public func cQueueEnqueueBuffer(
    _ queue: AudioQueueRef?, _ buffer: AudioQueueBufferRef?, _ descriptionCount: UInt32,
    _ descriptions: UnsafePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        let queue = try CQueues.find(queue)
        guard let buffer else { throw CStatus(Int(kAudioQueueErr_InvalidBuffer)) }
        try queue.enqueue(buffer)
    }
}

@_cdecl("AudioQueueStart")
public func cQueueStart(_ queue: AudioQueueRef?, _ startTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    CQueues.status { () throws(CStatus) in try CQueues.find(queue).start() }
}

@_cdecl("AudioQueuePrime")
public func cQueuePrime(_ queue: AudioQueueRef?, _ frames: UInt32, _ prepared: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    // Nothing to decode ahead (linear PCM): the buffers are played as they are.
    CQueues.status { () throws(CStatus) in
        _ = try CQueues.find(queue)
        prepared?.pointee = 0
    }
}

@_cdecl("AudioQueuePause")
public func cQueuePause(_ queue: AudioQueueRef?) -> OSStatus {
    CQueues.status { () throws(CStatus) in try CQueues.find(queue).pause() }
}

@_cdecl("AudioQueueStop")
public func cQueueStop(_ queue: AudioQueueRef?, _ immediate: UInt8) -> OSStatus {
    CQueues.status { () throws(CStatus) in try CQueues.find(queue).stop(immediately: immediate != 0) }
}

@_cdecl("AudioQueueFlush")
public func cQueueFlush(_ queue: AudioQueueRef?) -> OSStatus {
    // What is queued plays on (Flush only ends decoding, which linear PCM does not need).
    CQueues.status { () throws(CStatus) in _ = try CQueues.find(queue) }
}

@_cdecl("AudioQueueReset")
public func cQueueReset(_ queue: AudioQueueRef?) -> OSStatus {
    CQueues.status { () throws(CStatus) in try CQueues.find(queue).reset() }
}

@_cdecl("AudioQueueGetParameter")
public func cQueueGetParameter(
    _ queue: AudioQueueRef?, _ id: AudioQueueParameterID, _ value: UnsafeMutablePointer<AudioQueueParameterValue>?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        let queue = try CQueues.find(queue)
        guard let value else { throw CStatus(Int(kAudio_ParamError)) }
        value.pointee = try queue.parameter(id)
    }
}

@_cdecl("AudioQueueSetParameter")
public func cQueueSetParameter(
    _ queue: AudioQueueRef?, _ id: AudioQueueParameterID, _ value: AudioQueueParameterValue
)
    -> OSStatus
{
    CQueues.status { () throws(CStatus) in try CQueues.find(queue).setParameter(id, value) }
}

/// The properties a queue answers: IsRunning (UInt32) and StreamDescription (its format).
private func queueProperty(
    _ queue: CAudioQueue, _ id: AudioQueuePropertyID
) throws(CStatus) -> (size: Int, write: (UnsafeMutableRawPointer) -> Void) {
    switch Int(id) {
    case kAudioQueueProperty_IsRunning:
        let running: UInt32 = queue.running ? 1 : 0
        return (4, { $0.storeBytes(of: running, as: UInt32.self) })
    case kAudioQueueProperty_StreamDescription:
        let description = queue.format.description
        return (
            MemoryLayout<AudioStreamBasicDescription>.size,
            { $0.storeBytes(of: description, as: AudioStreamBasicDescription.self) }
        )
    default:
        throw CStatus(Int(kAudioQueueErr_InvalidProperty))
    }
}

@_cdecl("AudioQueueGetProperty")
public func cQueueGetProperty(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ data: UnsafeMutableRawPointer?, _ size: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        let property = try queueProperty(try CQueues.find(queue), id)
        guard let data, let size else { throw CStatus(Int(kAudio_ParamError)) }
        guard Int(size.pointee) >= property.size else { throw CStatus(Int(kAudioQueueErr_InvalidPropertySize)) }
        property.write(data)
        size.pointee = UInt32(property.size)
    }
}

@_cdecl("AudioQueueGetPropertySize")
public func cQueueGetPropertySize(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ size: UnsafeMutablePointer<UInt32>?
)
    -> OSStatus
{
    CQueues.status { () throws(CStatus) in
        let property = try queueProperty(try CQueues.find(queue), id)
        guard let size else { throw CStatus(Int(kAudio_ParamError)) }
        size.pointee = UInt32(property.size)
    }
}

@_cdecl("AudioQueueSetProperty")
public func cQueueSetProperty(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ data: UnsafeRawPointer?, _ size: UInt32
)
    -> OSStatus
{
    // IsRunning and StreamDescription are read-only; no other property is offered.
    CQueues.status { () throws(CStatus) in
        _ = try queueProperty(try CQueues.find(queue), id)
        throw CStatus(Int(kAudioQueueErr_InvalidProperty))
    }
}

@_cdecl("AudioQueueAddPropertyListener")
public func cQueueAddPropertyListener(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ procedure: AudioQueuePropertyListenerProc?,
    _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        try listener(queue, id, procedure, userData) { (queue, listener) throws(CStatus) in try queue.addListener(listener) }
    }
}

@_cdecl("AudioQueueRemovePropertyListener")
public func cQueueRemovePropertyListener(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ procedure: AudioQueuePropertyListenerProc?,
    _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        try listener(queue, id, procedure, userData) { (queue, listener) throws(CStatus) in try queue.removeListener(listener) }
    }
}

/// A listener of IsRunning (the one property listened to), checked, added or removed by `change`.
private func listener(
    _ queue: AudioQueueRef?, _ id: AudioQueuePropertyID, _ procedure: AudioQueuePropertyListenerProc?,
    _ userData: UnsafeMutableRawPointer?, _ change: (CAudioQueue, CAudioQueue.Listener) throws(CStatus) -> Void
) throws(CStatus) {
    let queue = try CQueues.find(queue)
    guard Int(id) == kAudioQueueProperty_IsRunning else { throw CStatus(Int(kAudioQueueErr_InvalidProperty)) }
    guard let procedure else { throw CStatus(Int(kAudio_ParamError)) }
    try change(queue, .init(procedure: procedure, userData: userData))
}

@_cdecl("AudioQueueGetCurrentTime")
public func cQueueGetCurrentTime(
    _ queue: AudioQueueRef?, _ timeline: AudioQueueTimelineRef?, _ time: UnsafeMutablePointer<AudioTimeStamp>?,
    _ discontinuity: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    CQueues.status { () throws(CStatus) in
        let queue = try CQueues.find(queue)
        guard let time else { throw CStatus(Int(kAudio_ParamError)) }
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = queue.sampleTime
        stamp.mFlags = UInt32(kAudioTimeStampSampleTimeValid)
        time.pointee = stamp
        discontinuity?.pointee = 0
    }
}
