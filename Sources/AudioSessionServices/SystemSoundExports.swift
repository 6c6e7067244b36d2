import CAudioSessionServices

// The functions of SystemSoundServices.h (SPEC §19 SO6), over CSystemSounds.

@_cdecl("AudioServicesCreateSystemSoundID")
public func cCreateSystemSoundID(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<SystemSoundID>?) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        guard let path, let out else { throw CStatus(Int(kAudio_ParamError)) }
        out.pointee = try CSystemSounds.shared.create(path: String(cString: path))
    }
}

@_cdecl("AudioServicesDisposeSystemSoundID")
public func cDisposeSystemSoundID(_ id: SystemSoundID) -> OSStatus {
    CStatus.of { () throws(CStatus) in try CSystemSounds.shared.dispose(id) }
}

@_cdecl("AudioServicesPlaySystemSound")
public func cPlaySystemSound(_ id: SystemSoundID) {
    CSystemSounds.shared.play(id)
}

/// With no vibrator, an alert sound is a system sound (silent with the switch on too: SO6).
@_cdecl("AudioServicesPlayAlertSound")
public func cPlayAlertSound(_ id: SystemSoundID) {
    CSystemSounds.shared.play(id)
}

@_cdecl("AudioServicesAddSystemSoundCompletion")
public func cAddSystemSoundCompletion(
    _ id: SystemSoundID, _ runLoop: OpaquePointer?, _ mode: OpaquePointer?,
    _ procedure: AudioServicesSystemSoundCompletionProc?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    CStatus.of { () throws(CStatus) in
        guard let procedure else { throw CStatus(Int(kAudio_ParamError)) }
        try CSystemSounds.shared.setCompletion(id, (procedure, clientData))
    }
}

@_cdecl("AudioServicesRemoveSystemSoundCompletion")
public func cRemoveSystemSoundCompletion(_ id: SystemSoundID) {
    try? CSystemSounds.shared.setCompletion(id, nil)
}
