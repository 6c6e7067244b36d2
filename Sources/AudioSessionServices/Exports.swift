import AudioSessionClient
import AudioSessionModel
import CAudioSessionServices

// The functions of AudioSessionServices.h (SPEC §14). Each checks its arguments, converts, and
// calls CSession / AudioSession; every error comes back as an OSStatus.

@_cdecl("AudioSessionInitialize")
public func cInitialize(
    _ runLoop: UnsafeMutableRawPointer?, _ runLoopMode: UnsafeRawPointer?,
    _ listener: AudioSessionInterruptionListener?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { try CSession.shared.initialize(listener, .init(pointer: clientData)) }
}

@_cdecl("AudioSessionSetActive")
public func cSetActive(_ active: UInt8) -> OSStatus {
    cSetActiveWithFlags(active, 0)
}

@_cdecl("AudioSessionSetActiveWithFlags")
public func cSetActiveWithFlags(_ active: UInt8, _ flags: UInt32) -> OSStatus {
    CStatus.of {
        let session = try CSession.shared.session()
        let notify = UInt32(kAudioSessionSetActiveFlag_NotifyOthersOnDeactivation)
        guard flags & ~notify == 0 else { throw CStatus.badParameter }
        try session.setActive(active != 0, options: flags & notify != 0 ? .notifyOthersOnDeactivation : [])
    }
}

@_cdecl("AudioSessionGetPropertySize")
public func cGetPropertySize(_ id: AudioSessionPropertyID, _ size: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    CStatus.of {
        _ = try CSession.shared.session()
        guard let property = CProperty.all[id], property.readable else { throw CStatus.unsupported }
        guard let size else { throw CStatus.badParameter }
        size.pointee = property.kind.size
    }
}

@_cdecl("AudioSessionGetProperty")
public func cGetProperty(
    _ id: AudioSessionPropertyID, _ size: UnsafeMutablePointer<UInt32>?, _ data: UnsafeMutableRawPointer?
)
    -> OSStatus
{
    CStatus.of {
        let session = try CSession.shared.session()
        guard let property = CProperty.all[id], property.readable else { throw CStatus.unsupported }
        guard let size, let data else { throw CStatus.badParameter }
        guard size.pointee == property.kind.size else { throw CStatus.badSize }
        switch try CSession.shared.read(id, session) {
        case .uint32(let value): data.storeBytes(of: value, as: UInt32.self)
        case .float32(let value): data.storeBytes(of: value, as: Float32.self)
        case .float64(let value): data.storeBytes(of: value, as: Float64.self)
        case .pointer(let value): data.storeBytes(of: value, as: UnsafeRawPointer.self)
        }
    }
}

@_cdecl("AudioSessionSetProperty")
public func cSetProperty(_ id: AudioSessionPropertyID, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    CStatus.of {
        let session = try CSession.shared.session()
        guard let property = CProperty.all[id], property.writable else { throw CStatus.unsupported }
        guard let data else { throw CStatus.badParameter }
        guard size == property.kind.size else { throw CStatus.badSize }
        let value: CValue
        switch property.kind {
        case .uint32: value = .uint32(data.loadUnaligned(as: UInt32.self))
        case .float32:
            let number = data.loadUnaligned(as: Float32.self)
            guard number.isFinite else { throw CStatus.badParameter }
            value = .float32(number)
        case .float64:
            let number = data.loadUnaligned(as: Float64.self)
            guard number.isFinite else { throw CStatus.badParameter }
            value = .float64(number)
        case .pointer, .listenerOnly: throw CStatus.unsupported
        }
        try CSession.shared.write(id, value, session)
    }
}

@_cdecl("AudioSessionAddPropertyListener")
public func cAddPropertyListener(
    _ id: AudioSessionPropertyID, _ procedure: AudioSessionPropertyListener?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of {
        let session = try CSession.shared.session()
        guard CProperty.all[id]?.listenable == true else { throw CStatus.unsupported }
        guard let procedure else { throw CStatus.badParameter }
        CSession.shared.noteAvailability(session)
        CSession.shared.state.withLock {
            $0.listeners.append(.init(property: id, procedure: procedure, clientData: .init(pointer: clientData)))
        }
    }
}

@_cdecl("AudioSessionRemovePropertyListenerWithUserData")
public func cRemovePropertyListener(
    _ id: AudioSessionPropertyID, _ procedure: AudioSessionPropertyListener?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of {
        _ = try CSession.shared.session()
        guard CProperty.all[id]?.listenable == true else { throw CStatus.unsupported }
        guard let procedure else { throw CStatus.badParameter }
        let address = unsafeBitCast(procedure, to: UnsafeRawPointer.self)
        CSession.shared.state.withLock {
            $0.listeners.removeAll {
                $0.property == id && unsafeBitCast($0.procedure, to: UnsafeRawPointer.self) == address
                    && $0.clientData.pointer == clientData
            }
        }
    }
}

@_cdecl("AudioSessionSimulateSystemEvent")
public func cSimulateSystemEvent(_ text: UnsafePointer<CChar>?) -> OSStatus {
    CStatus.of {
        guard let text, let event = try? SystemEvent(parsing: String(cString: text)) else {
            throw CStatus.badParameter
        }
        let controller = try SystemController(transport: .fromEnvironment)
        defer { controller.close() }
        try controller.perform(event)
        try controller.waitForPendingEvents()
    }
}
