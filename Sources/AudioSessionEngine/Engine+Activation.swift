import AudioSessionModel

/// Activation and arbitration (SPEC §4).
extension Engine {
    /// A3, then A4: whether this configuration of the session may activate now.
    /// A8: audioProcessing takes no part and is never refused.
    func checkActivation(_ index: Int, _ category: Category, _ options: CategoryOptions) throws(SessionError) {
        guard category.takesPartInArbitration else { return }
        let mixable = options.contains(.mixWithOthers)
        // A3: system sessions outrank every app.
        if systemSessions.contains(.siri), category.hasInput {
            throw SessionError(.siriIsRecording, "A3: Siri is active; a category with input cannot activate")
        }
        if !mixable, let system = systemSessions.last {
            throw SessionError(
                .insufficientPriority, "A3: a system session (\(system)) is active; a non-mixable session cannot activate")
        }
        // A4: background activation, checked in this order.
        let session = sessions[index]
        guard appState(of: session) == .background else { return }
        let backgroundAudio = session.capabilities.contains(.backgroundAudio)
        if category == .ambient || category == .soloAmbient {
            throw SessionError(.cannotStartPlaying, "A4: category \(category) cannot activate in the background")
        }
        if category.hasOutput, !backgroundAudio {
            throw SessionError(
                .cannotStartPlaying, "A4: background activation of category \(category) needs background-audio")
        }
        if category.hasInput, !backgroundAudio {
            throw SessionError(
                .cannotStartRecording, "A4: background activation of category \(category) needs background-audio")
        }
        if !mixable, !session.capabilities.contains(.nowPlaying) {
            throw SessionError(
                .cannotInterruptOthers, "A4: background activation of a non-mixable session needs now-playing")
        }
        if mixable, category.hasInput {
            throw SessionError(
                .cannotStartRecording, "A4: a mixable session with input cannot activate in the background")
        }
    }

    /// A1–A4, I5: `setActive(true)`.
    mutating func activate(_ index: Int, _ context: inout StepContext) throws(SessionError) {
        let session = sessions[index]
        guard !session.isActive else { return }  // A1
        try checkActivation(index, session.category, session.options)
        commitActivation(index, &context)
    }

    /// The checks have passed: the session becomes active and interrupts as A2 and I6.
    mutating func commitActivation(_ index: Int, _ context: inout StepContext) {
        endInterruptedState(index)  // I5: no later `ended` for it
        activationCounter += 1
        sessions[index].isActive = true
        sessions[index].activationOrder = activationCounter
        activeSessions.append(index)
        let session = sessions[index]
        guard session.takesPartInArbitration else { return }  // A8
        if !session.isMixable { interruptNonMixableOthers(of: index, &context) }
        if session.options.contains(.interruptSpokenAudioAndMixWithOthers) { interruptSpokenAudio(of: index, &context) }
    }

    /// A1, A5, A6, I3: `setActive(false, notifyOthers)`.
    mutating func deactivate(_ index: Int, notifyOthers: Bool, _ context: inout StepContext) throws(SessionError) {
        guard sessions[index].isActive else { return }  // A1
        let wasRunning = sessions[index].ioRunning
        stopIO(index, output: true, input: true, &context)
        markInactive(index)
        endInterruptions(by: .app(index), shouldResume: { $0.resumesAlways || notifyOthers }, &context)
        if wasRunning {
            // A5: deactivated with every effect, and the call reports IsBusy.
            throw SessionError(.isBusy, "A5: the session's I/O was running; it was deactivated and its I/O stopped")
        }
    }

    /// Removes the session from the active list and resets what only an active session has.
    mutating func markInactive(_ index: Int) {
        sessions[index].isActive = false
        sessions[index].hintOn = false  // OA3: its own deactivation or interruption sends nothing
        if let position = activeSessions.lastIndex(of: index) { activeSessions.remove(at: position) }
    }

    /// D3: every app is in the background while the screen is locked.
    func appState(of session: SessionRecord) -> AppState {
        device.isLocked ? .background : session.requestedState
    }
}
