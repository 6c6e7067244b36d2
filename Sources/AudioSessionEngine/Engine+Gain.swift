import AudioSessionModel

/// Ducking and silencing: each session's effective output gain (SPEC D1–D5, C11).
extension Engine {
    /// What every session's gain depends on, gathered in one pass over the active sessions.
    struct GainInputs {
        /// Active duckOthers sessions (D1) and active record sessions (C11); at most two of
        /// each are needed to know whether *another* app has one.
        var duckers: (Int?, Int?) = (nil, nil)
        var recorders: (Int?, Int?) = (nil, nil)

        static func another(_ pair: (Int?, Int?), than index: Int) -> Bool {
            (pair.0 != nil && pair.0 != index) || (pair.1 != nil && pair.1 != index)
        }

        static func add(_ index: Int, to pair: inout (Int?, Int?)) {
            if pair.0 == nil { pair.0 = index } else if pair.1 == nil { pair.1 = index }
        }
    }

    func gainInputs() -> GainInputs {
        var inputs = GainInputs()
        for index in activeSessions {
            guard sessions[index].takesPartInArbitration else { continue }  // A8
            if sessions[index].options.contains(.duckOthers) { GainInputs.add(index, to: &inputs.duckers) }
            if sessions[index].category == .record { GainInputs.add(index, to: &inputs.recorders) }
        }
        return inputs
    }

    /// D4: (duck level if ducked, else 1) × (0 if silenced, else 1); 1 without output.
    func outputGain(_ index: Int, _ inputs: GainInputs) -> Double {
        guard sessions[index].category.hasOutput else { return 1 }
        if isSilenced(index, inputs) { return 0 }
        // D1: ducking applies to active sessions, once however many duckers (system sessions never).
        if sessions[index].isActive, GainInputs.another(inputs.duckers, than: index) { return duckLevel }
        return 1
    }

    /// C11, D2, D3, D5: silencing applies whether the session is active or not.
    private func isSilenced(_ index: Int, _ inputs: GainInputs) -> Bool {
        if sessions[index].takesPartInArbitration, GainInputs.another(inputs.recorders, than: index) { return true }  // C11
        let quietCategory = sessions[index].category.isSilencedBySwitchAndLock
        if device.silentSwitchOn, quietCategory { return true }  // D2
        if device.isLocked, quietCategory { return true }  // D3
        return isSuspended(index)  // D3, D5
    }

    /// D5: an app in the background (D3: as every app is while locked) without background-audio
    /// is suspended as far as audio goes.
    private func isSuspended(_ index: Int) -> Bool {
        appState(of: sessions[index]) == .background && !sessions[index].capabilities.contains(.backgroundAudio)
    }

    /// D5, P3: whether the session's input records zeros.
    func recordsSilence(_ index: Int) -> Bool {
        if device.recordPermission(of: appIDs[index]) != .granted { return true }  // P3
        if isSuspended(index) { return true }  // D5
        // I7: sessions with overrideMutedMicrophoneInterruption record zeros from a muted mic.
        return device.microphoneMuted && recordsFromBuiltInMicrophone(currentRouteKey(index))
    }

    /// Sends the output gain of every active session whose gain changed (for the backend).
    mutating func sendGainChanges(_ context: inout StepContext) {
        let inputs = gainInputs()
        for index in activeSessions {
            let gain = outputGain(index, inputs)
            guard gain != sessions[index].reportedGain else { continue }
            sessions[index].reportedGain = gain
            context.requests.append(.outputGain(appIDs[index], gain))
        }
    }
}
