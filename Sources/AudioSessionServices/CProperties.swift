import AudioSessionClient
import AudioSessionModel
import CAudioSessionServices

#if canImport(Glibc)
import Glibc
#endif

/// The properties of SPEC §14: each one's C type and direction, and how it reads and writes
/// through `AudioSession`.
struct CProperty: Sendable {
    enum Kind: Sendable {
        case uint32, float32, float64, pointer, listenerOnly

        var size: UInt32 {
            switch self {
            case .uint32, .float32: 4
            case .float64, .pointer: 8
            case .listenerOnly: 0
            }
        }
    }

    let kind: Kind
    let readable: Bool
    let writable: Bool
    let listenable: Bool

    static func id(_ constant: Int) -> AudioSessionPropertyID { AudioSessionPropertyID(constant) }

    static let all: [AudioSessionPropertyID: CProperty] = [
        id(kAudioSessionProperty_PreferredHardwareSampleRate): .init(.float64, read: true, write: true),
        id(kAudioSessionProperty_PreferredHardwareIOBufferDuration): .init(.float32, read: true, write: true),
        id(kAudioSessionProperty_AudioCategory): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_AudioRouteChange): .init(.listenerOnly, read: false, write: false, listen: true),
        id(kAudioSessionProperty_CurrentHardwareSampleRate): .init(.float64, read: true),
        id(kAudioSessionProperty_CurrentHardwareInputNumberChannels): .init(.uint32, read: true),
        id(kAudioSessionProperty_CurrentHardwareOutputNumberChannels): .init(.uint32, read: true),
        id(kAudioSessionProperty_CurrentHardwareOutputVolume): .init(.float32, read: true, listen: true),
        id(kAudioSessionProperty_CurrentHardwareInputLatency): .init(.float32, read: true),
        id(kAudioSessionProperty_CurrentHardwareOutputLatency): .init(.float32, read: true),
        id(kAudioSessionProperty_CurrentHardwareIOBufferDuration): .init(.float32, read: true),
        id(kAudioSessionProperty_OtherAudioIsPlaying): .init(.uint32, read: true),
        id(kAudioSessionProperty_OverrideAudioRoute): .init(.uint32, read: false, write: true),
        id(kAudioSessionProperty_AudioInputAvailable): .init(.uint32, read: true, listen: true),
        id(kAudioSessionProperty_ServerDied): .init(.listenerOnly, read: false, write: false, listen: true),
        id(kAudioSessionProperty_OtherMixableAudioShouldDuck): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_OverrideCategoryMixWithOthers): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_OverrideCategoryEnableBluetoothInput): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_InterruptionType): .init(.uint32, read: true),
        id(kAudioSessionProperty_Mode): .init(.uint32, read: true, write: true),
        id(kAudioSessionProperty_InputGainAvailable): .init(.uint32, read: true, listen: true),
        id(kAudioSessionProperty_InputGainScalar): .init(.float32, read: true, write: true),
        id(kAudioSessionProperty_AudioRouteDescription): .init(.pointer, read: true),
        id(kAudioSessionProperty_AudioRoute): .init(.pointer, read: true),
    ]

    init(_ kind: Kind, read: Bool, write: Bool = false, listen: Bool = false) {
        self.kind = kind
        readable = read
        writable = write
        listenable = listen
    }

    /// The override properties and their option bits (SPEC §14: `cmix` 1, `duck` 2, `cblu` 4, `cspk` 8).
    static let overrideBits: [AudioSessionPropertyID: CategoryOptions] = [
        id(kAudioSessionProperty_OverrideCategoryMixWithOthers): .mixWithOthers,
        id(kAudioSessionProperty_OtherMixableAudioShouldDuck): .duckOthers,
        id(kAudioSessionProperty_OverrideCategoryEnableBluetoothInput): .allowBluetooth,
        id(kAudioSessionProperty_OverrideCategoryDefaultToSpeaker): .defaultToSpeaker,
    ]
}

/// A property value on its way to or from C.
enum CValue {
    case uint32(UInt32)
    case float32(Float32)
    case float64(Float64)
    case pointer(UnsafeRawPointer)
}

/// Four-character codes as C spells them.
extension String {
    var fourCharacterCode: UInt32 { utf8.reduce(0) { $0 << 8 | UInt32($1) } }
}

extension CSession {
    /// The property's value now. `type` is readable only on the thread of an end-interruption
    /// callback, while it runs (elsewhere `pty?`).
    func read(_ id: AudioSessionPropertyID, _ session: AudioSession) throws -> CValue {
        if id == CProperty.id(kAudioSessionProperty_InterruptionType) {
            guard let end = state.withLock({ $0.endInterruption }), pthread_equal(end.thread, pthread_self()) != 0 else {
                throw CStatus.unsupported
            }
            return .uint32(end.type)
        }
        if let bit = CProperty.overrideBits[id] { return .uint32(state.withLock { $0.overrides.contains(bit) } ? 1 : 0) }
        let status = try session.status()
        switch Int(id) {
        case kAudioSessionProperty_AudioCategory:
            // multiRoute has no C code (only AVAudioSession can set it): `?cat`.
            guard let code = status.category.cCode else { throw CStatus(kAudioSessionNoCategorySet) }
            return .uint32(code.fourCharacterCode)
        case kAudioSessionProperty_Mode:
            guard let code = status.mode.cCode else { throw CStatus(kAudioSessionUnspecifiedError) }
            return .uint32(code.fourCharacterCode)
        case kAudioSessionProperty_PreferredHardwareSampleRate:
            return .float64(status.preferences.sampleRate ?? status.sampleRate)
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration:
            return .float32(Float32(status.preferences.ioBufferDuration ?? status.ioBufferDuration))
        case kAudioSessionProperty_CurrentHardwareSampleRate: return .float64(status.sampleRate)
        case kAudioSessionProperty_CurrentHardwareIOBufferDuration: return .float32(Float32(status.ioBufferDuration))
        case kAudioSessionProperty_CurrentHardwareInputNumberChannels: return .uint32(UInt32(try status.inputChannels.get()))
        case kAudioSessionProperty_CurrentHardwareOutputNumberChannels: return .uint32(UInt32(try status.outputChannels.get()))
        case kAudioSessionProperty_CurrentHardwareOutputVolume: return .float32(Float32(status.outputVolume))
        case kAudioSessionProperty_CurrentHardwareInputLatency: return .float32(Float32(try status.inputLatency.get()))
        case kAudioSessionProperty_CurrentHardwareOutputLatency: return .float32(Float32(try status.outputLatency.get()))
        case kAudioSessionProperty_OtherAudioIsPlaying: return .uint32(status.isOtherAudioPlaying ? 1 : 0)
        case kAudioSessionProperty_AudioInputAvailable: return .uint32(status.isInputAvailable ? 1 : 0)
        case kAudioSessionProperty_InputGainAvailable: return .uint32(status.isInputGainSettable ? 1 : 0)
        case kAudioSessionProperty_InputGainScalar: return .float32(Float32(status.inputGain))
        case kAudioSessionProperty_AudioRoute:
            let name = CString(status.currentRoute.legacyName)
            state.withLock { $0.routeName = name }  // the previous one is freed now
            return .pointer(UnsafeRawPointer(name.pointer))
        case kAudioSessionProperty_AudioRouteDescription:
            let route = CRoute(status.currentRoute)
            state.withLock { $0.routeDescription = route }
            return .pointer(UnsafeRawPointer(route.description))
        default:
            throw CStatus.unsupported
        }
    }

    /// Writes a property: -50 for a value no setting has, else the engine's answer.
    func write(_ id: AudioSessionPropertyID, _ value: CValue, _ session: AudioSession) throws {
        switch (Int(id), value) {
        case (kAudioSessionProperty_AudioCategory, .uint32(let code)):
            guard let category = Category.allCases.first(where: { $0.cCode?.fourCharacterCode == code }) else {
                throw CStatus.badParameter
            }
            // Writing the category it has already changes nothing; a new one resets the mode
            // (C10) and clears the overrides (§14).
            guard try session.status().category != category else { return }
            try session.setCategory(category)
            state.withLock { $0.overrides = [] }
        case (kAudioSessionProperty_Mode, .uint32(let code)):
            guard let mode = Mode.allCases.first(where: { $0.cCode?.fourCharacterCode == code }) else {
                throw CStatus.badParameter
            }
            try session.setMode(mode)
        case (_, .uint32(let on)) where CProperty.overrideBits[id] != nil:
            var overrides = state.withLock { $0.overrides }
            if on != 0 { overrides.insert(CProperty.overrideBits[id]!) } else { overrides.remove(CProperty.overrideBits[id]!) }
            let status = try session.status()
            try session.setCategory(status.category, mode: status.mode, options: overrides)
            state.withLock { $0.overrides = overrides }
        case (kAudioSessionProperty_OverrideAudioRoute, .uint32(let code)):
            guard let port = PortOverride(rawValue: code) else { throw CStatus.badParameter }
            try session.overrideOutputAudioPort(port)
        case (kAudioSessionProperty_PreferredHardwareSampleRate, .float64(let rate)):
            try session.setPreferredSampleRate(rate)
        case (kAudioSessionProperty_PreferredHardwareIOBufferDuration, .float32(let duration)):
            try session.setPreferredIOBufferDuration(Double(duration))
        case (kAudioSessionProperty_InputGainScalar, .float32(let gain)):
            try session.setInputGain(Double(gain))
        default:
            throw CStatus.unsupported
        }
    }
}
