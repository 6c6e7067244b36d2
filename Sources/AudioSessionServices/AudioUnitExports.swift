import AudioSessionClient
import CAudioSessionServices

// The functions of AudioUnitServices.h (SPEC §19 SO5): the two I/O units found through the
// AudioComponent API, their properties and life; every error comes back as Apple's OSStatus.

/// The components offered (RemoteIO, VoiceProcessingIO, AUConverter) and the live units of this
/// process: I/O units and converter units, each kind with handles of its own numbers.
enum CUnits {
    static let live = CHandles<CAudioUnit>()
    static let converters = CHandles<CConverterUnit>(first: 0x2000_0000)

    /// A unit of either kind, by its handle.
    enum Found {
        case io(CAudioUnit)
        case converter(CConverterUnit)
    }

    static func find(_ handle: AudioUnit?) throws(CStatus) -> Found {
        if let converter = try? converters.find(handle) { return .converter(converter) }
        return .io(try live.find(handle))
    }

    /// An I/O unit's; a converter unit has no such call (kAudio_ParamError).
    static func io(_ handle: AudioUnit?) throws(CStatus) -> CAudioUnit {
        guard case .io(let unit) = try find(handle) else { throw CStatus(Int(kAudio_ParamError)) }
        return unit
    }

    /// A component's handle: a fixed number per kind, never an address.
    static func component(_ kind: CAudioUnit.Kind) -> AudioComponent {
        AudioComponent(bitPattern: 0xA0D1_0000 + (CAudioUnit.Kind.allCases.firstIndex(of: kind)! + 1) * 0x10)!
    }

    static func kind(of component: AudioComponent?) throws(CStatus) -> CAudioUnit.Kind {
        guard let component, let kind = CAudioUnit.Kind.allCases.first(where: { Self.component($0) == component }) else {
            throw CStatus(Int(kAudio_ParamError))
        }
        return kind
    }

    static func description(of kind: CAudioUnit.Kind) -> AudioComponentDescription {
        AudioComponentDescription(
            componentType: kind.type, componentSubType: kind.subType,
            componentManufacturer: UInt32(kAudioUnitManufacturer_Apple), componentFlags: 0, componentFlagsMask: 0)
    }

    /// A property of a unit of either kind.
    static func property(
        of handle: AudioUnit?, _ id: AudioUnitPropertyID, scope: AudioUnitScope, element: AudioUnitElement
    ) throws(CStatus) -> [UInt8] {
        switch try find(handle) {
        case .io(let unit): try unit.property(id, scope: scope, element: element)
        case .converter(let unit): try unit.property(id, scope: scope, element: element)
        }
    }

    /// Whether `kind` matches what is asked (a 0 field matches anything, as on Apple's systems).
    static func matches(_ kind: CAudioUnit.Kind, _ asked: AudioComponentDescription) -> Bool {
        let offered = description(of: kind)
        return (asked.componentType == 0 || asked.componentType == offered.componentType)
            && (asked.componentSubType == 0 || asked.componentSubType == offered.componentSubType)
            && (asked.componentManufacturer == 0 || asked.componentManufacturer == offered.componentManufacturer)
    }
}

@_cdecl("AudioComponentFindNext")
public func cComponentFindNext(
    _ after: AudioComponent?, _ description: UnsafePointer<AudioComponentDescription>?
)
    -> AudioComponent?
{
    guard let description else { return nil }
    var kinds = CAudioUnit.Kind.allCases[...]
    if let after {
        guard let index = CAudioUnit.Kind.allCases.firstIndex(where: { CUnits.component($0) == after }) else { return nil }
        kinds = kinds[(index + 1)...]
    }
    return kinds.first { CUnits.matches($0, description.pointee) }.map(CUnits.component)
}

@_cdecl("AudioComponentGetDescription")
public func cComponentGetDescription(
    _ component: AudioComponent?, _ out: UnsafeMutablePointer<AudioComponentDescription>?
)
    -> OSStatus
{
    CStatus.of { () throws(CStatus) in
        let kind = try CUnits.kind(of: component)
        guard let out else { throw CStatus(Int(kAudio_ParamError)) }
        out.pointee = CUnits.description(of: kind)
    }
}

/// SO9: Apple's name of a component; in the C form a C string the library owns.
@_cdecl("AudioComponentCopyName")
public func cComponentCopyName(_ component: AudioComponent?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let kind = try CUnits.kind(of: component)
        guard let out else { throw CStatus(Int(kAudio_ParamError)) }
        out.pointee = UnsafeRawPointer(kind.name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

@_cdecl("AudioComponentInstanceNew")
public func cComponentInstanceNew(
    _ component: AudioComponent?, _ out: UnsafeMutablePointer<AudioComponentInstance?>?
)
    -> OSStatus
{
    CStatus.of { () throws(CStatus) in
        let kind = try CUnits.kind(of: component)
        guard let out else { throw CStatus(Int(kAudio_ParamError)) }
        if kind == .converter {
            let rate = CSession.processSession.sampleRate
            out.pointee = CUnits.converters.add { _ in CConverterUnit(sampleRate: rate >= 8_000 ? Int(rate) : 48_000) }
            return
        }
        out.pointee = CUnits.live.add { handle in CAudioUnit(kind: kind, session: CSession.processSession, handle: handle) }
    }
}

@_cdecl("AudioComponentInstanceDispose")
public func cComponentInstanceDispose(_ unit: AudioComponentInstance?) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        if (try? CUnits.converters.remove(unit)) != nil { return }
        try CUnits.live.remove(unit).dispose()
    }
}

@_cdecl("AudioUnitInitialize")
public func cUnitInitialize(_ unit: AudioUnit?) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        switch try CUnits.find(unit) {
        case .io(let unit): try unit.initialize()
        case .converter(let unit): try unit.initialize()
        }
    }
}

@_cdecl("AudioUnitUninitialize")
public func cUnitUninitialize(_ unit: AudioUnit?) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        switch try CUnits.find(unit) {
        case .io(let unit): try unit.uninitialize()
        case .converter(let unit): unit.uninitialize()
        }
    }
}

@_cdecl("AudioOutputUnitStart")
public func cOutputUnitStart(_ unit: AudioUnit?) -> OSStatus {
    CStatus.of { () throws(CStatus) in try CUnits.io(unit).start() }
}

@_cdecl("AudioOutputUnitStop")
public func cOutputUnitStop(_ unit: AudioUnit?) -> OSStatus {
    CStatus.of { () throws(CStatus) in try CUnits.io(unit).stop() }
}

@_cdecl("AudioUnitSetProperty")
public func cUnitSetProperty(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ data: UnsafeRawPointer?, _ size: UInt32
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        guard let data else { throw CStatus(Int(kAudio_ParamError)) }
        switch try CUnits.find(unit) {
        case .io(let unit): try unit.setProperty(id, scope: scope, element: element, data, size: Int(size))
        case .converter(let unit): try unit.setProperty(id, scope: scope, element: element, data, size: Int(size))
        }
    }
}

@_cdecl("AudioUnitGetProperty")
public func cUnitGetProperty(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ data: UnsafeMutableRawPointer?, _ size: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let bytes = try CUnits.property(of: unit, id, scope: scope, element: element)
        guard let data, let size else { throw CStatus(Int(kAudio_ParamError)) }
        guard Int(size.pointee) >= bytes.count else { throw CStatus(Int(kAudio_ParamError)) }
        bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        size.pointee = UInt32(bytes.count)
    }
}

@_cdecl("AudioUnitGetPropertyInfo")
public func cUnitGetPropertyInfo(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ size: UnsafeMutablePointer<UInt32>?, _ writable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let bytes = try CUnits.property(of: unit, id, scope: scope, element: element)
        size?.pointee = UInt32(bytes.count)
        writable?.pointee = Int(id) == kAudioOutputUnitProperty_IsRunning ? 0 : 1
    }
}

@_cdecl("AudioUnitSetParameter")
public func cUnitSetParameter(
    _ unit: AudioUnit?, _ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ value: AudioUnitParameterValue, _ offset: UInt32
) -> OSStatus {
    // The units offered have no parameters.
    CStatus.of { () throws(CStatus) in
        _ = try CUnits.find(unit)
        throw CStatus(Int(kAudioUnitErr_InvalidParameter))
    }
}

@_cdecl("AudioUnitGetParameter")
public func cUnitGetParameter(
    _ unit: AudioUnit?, _ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ value: UnsafeMutablePointer<AudioUnitParameterValue>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        _ = try CUnits.find(unit)
        throw CStatus(Int(kAudioUnitErr_InvalidParameter))
    }
}

@_cdecl("AudioUnitRender")
public func cUnitRender(
    _ unit: AudioUnit?, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ time: UnsafePointer<AudioTimeStamp>?,
    _ bus: UInt32, _ frames: UInt32, _ data: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        guard let data else { throw CStatus(Int(kAudio_ParamError)) }
        switch try CUnits.find(unit) {
        case .io(let unit):
            guard bus == 1 else { throw CStatus(Int(kAudioUnitErr_InvalidElement)) }  // the microphone's bus only
            try unit.renderInput(frames: Int(frames), into: data, flags: flags)
        case .converter(let unit):
            guard bus == 0 else { throw CStatus(Int(kAudioUnitErr_InvalidElement)) }  // SO9: its one output bus
            try unit.render(frames: Int(frames), into: data)
        }
    }
}

@_cdecl("AudioUnitAddPropertyListener")
public func cUnitAddPropertyListener(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ procedure: AudioUnitPropertyListenerProc?,
    _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let unit = try CUnits.io(unit)
        guard Int(id) == kAudioOutputUnitProperty_IsRunning else { throw CAudioUnit.invalidProperty }
        guard let procedure else { throw CStatus(Int(kAudio_ParamError)) }
        try unit.addListener(.init(procedure: procedure, userData: userData, property: id))
    }
}

@_cdecl("AudioUnitRemovePropertyListenerWithUserData")
public func cUnitRemovePropertyListener(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ procedure: AudioUnitPropertyListenerProc?,
    _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        let unit = try CUnits.io(unit)
        guard let procedure else { throw CStatus(Int(kAudio_ParamError)) }
        try unit.removeListener(procedure, userData: userData, property: id)
    }
}
