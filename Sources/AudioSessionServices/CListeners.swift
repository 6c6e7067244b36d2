import AudioSessionClient
import AudioSessionModel
import CAudioSessionServices

#if canImport(Glibc)
import Glibc
#endif

/// Notifications to listener calls. They run on the session's serial event queue (the
/// library's), in delivery order, with no lock held: a listener may call the API.
extension CSession {
    func deliver(_ notification: SessionNotification, _ session: AudioSession) {
        switch notification {
        case .interruptionBegan:
            callInterruptionListener(UInt32(kAudioSessionBeginInterruption))
        case .interruptionEnded(let shouldResume):
            let type = shouldResume ? kAudioSessionInterruptionType_ShouldResume : kAudioSessionInterruptionType_ShouldNotResume
            state.withLock { $0.endInterruption = (pthread_self(), UInt32(type)) }
            callInterruptionListener(UInt32(kAudioSessionEndInterruption))
            state.withLock { $0.endInterruption = nil }
        case .routeChange(let reason, let previous, let current):
            let previousRoute = CRoute(previous)
            let currentRoute = CRoute(current)
            let oldName = CString(previous.legacyName)
            var change = AudioSessionRouteChange(
                reason: reason.rawValue, oldRoute: UnsafePointer(oldName.pointer),
                previousRoute: UnsafePointer(previousRoute.description), currentRoute: UnsafePointer(currentRoute.description))
            callListeners(kAudioSessionProperty_AudioRouteChange, &change)
            withExtendedLifetime((previousRoute, currentRoute, oldName)) {}
            tellAvailabilityChanges(session)
        case .mediaServicesLost:
            var died: UInt32 = 1
            callListeners(kAudioSessionProperty_ServerDied, &died)
        case .mediaServicesReset:
            // MS2: the configuration is reset; the C session stays initialized, its listeners kept.
            state.withLock { $0.overrides = [] }
            var died: UInt32 = 0
            callListeners(kAudioSessionProperty_ServerDied, &died)
        case .outputVolume(let volume):
            var value = Float32(volume)
            callListeners(kAudioSessionProperty_CurrentHardwareOutputVolume, &value)
        case .silenceSecondaryAudioHint, .recordPermission:
            break  // no C property carries them
        }
    }

    private func callInterruptionListener(_ interruptionState: UInt32) {
        guard let listener = state.withLock({ $0.interruptionListener }) else { return }
        listener.procedure(listener.clientData.pointer, interruptionState)
    }

    private func callListeners<Value>(_ property: Int, _ value: inout Value) {
        let id = CProperty.id(property)
        let listeners = state.withLock { $0.listeners.filter { $0.property == id } }
        guard !listeners.isEmpty else { return }
        withUnsafePointer(to: &value) { pointer in
            for listener in listeners {
                listener.procedure(listener.clientData.pointer, id, UInt32(MemoryLayout<Value>.size), pointer)
            }
        }
    }

    /// `aiav` and `igav` follow the route: after a route change, listeners hear of the ones that changed.
    private func tellAvailabilityChanges(_ session: AudioSession) {
        guard let status = try? session.status() else { return }
        let (inputChanged, gainChanged) = state.withLock { state -> (Bool, Bool) in
            defer {
                state.inputAvailable = status.isInputAvailable
                state.gainAvailable = status.isInputGainSettable
            }
            return (
                state.inputAvailable.map { $0 != status.isInputAvailable } ?? false,
                state.gainAvailable.map { $0 != status.isInputGainSettable } ?? false
            )
        }
        if inputChanged {
            var value: UInt32 = status.isInputAvailable ? 1 : 0
            callListeners(kAudioSessionProperty_AudioInputAvailable, &value)
        }
        if gainChanged {
            var value: UInt32 = status.isInputGainSettable ? 1 : 0
            callListeners(kAudioSessionProperty_InputGainAvailable, &value)
        }
    }

    /// Remembers `aiav` and `igav` as the program first sees them, so later changes are told.
    func noteAvailability(_ session: AudioSession) {
        guard let status = try? session.status() else { return }
        state.withLock { state in
            if state.inputAvailable == nil { state.inputAvailable = status.isInputAvailable }
            if state.gainAvailable == nil { state.gainAvailable = status.isInputGainSettable }
        }
    }
}
