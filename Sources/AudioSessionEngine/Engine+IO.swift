import AudioSessionModel

/// I/O reports (SPEC IO1–IO3).
extension Engine {
    /// IO1, IO2: output starts; an inactive session is activated first, as setActive(true).
    mutating func startOutput(_ index: Int, _ context: inout StepContext) throws(SessionError) {
        let session = sessions[index]
        guard session.category.hasOutput else {
            throw SessionError(.incompatibleCategory, "IO2: category \(session.category) has no output")
        }
        guard !session.outputRunning else { return }
        if !session.isActive {
            try checkActivation(index, session.category, session.options)
            commitActivation(index, &context)
        }
        sessions[index].outputRunning = true
    }

    /// IO1, IO2, P3: input starts; checked in the order `!cat`, activation, `!res`.
    mutating func startInput(_ index: Int, _ context: inout StepContext) throws(SessionError) {
        let session = sessions[index]
        guard session.category.hasInput else {
            throw SessionError(.incompatibleCategory, "IO2: category \(session.category) has no input")
        }
        guard !session.inputRunning else { return }
        if !session.isActive { try checkActivation(index, session.category, session.options) }
        // IO2: the route after the activation must have an input; checked before anything changes (A7).
        guard routeKeyAfterActivating(index).inputs != 0 else {
            throw SessionError(.resourceNotAvailable, "IO2: the session's route has no input")
        }
        if !session.isActive { commitActivation(index, &context) }
        sessions[index].inputRunning = true
        // P3: starting input while undetermined asks the user.
        if device.recordPermission(of: appIDs[index]) == .undetermined { askRecordPermission(index, &context) }
    }

    /// Stops output or input at the app's request; stopping what does not run changes nothing.
    mutating func stopIO(_ index: Int, output: Bool) {
        if output { sessions[index].outputRunning = false } else { sessions[index].inputRunning = false }
    }

    /// Stops I/O for the system (A5, IO3) and tells the world outside.
    mutating func stopIO(_ index: Int, output: Bool, input: Bool, _ context: inout StepContext) {
        let stopsOutput = output && sessions[index].outputRunning
        let stopsInput = input && sessions[index].inputRunning
        guard stopsOutput || stopsInput else { return }
        if stopsOutput { sessions[index].outputRunning = false }
        if stopsInput { sessions[index].inputRunning = false }
        context.interruptions.append(.stopIO(appIDs[index], output: stopsOutput, input: stopsInput))
    }

    /// The session's route as it would be right after it activates (RT9, RT10), computed
    /// without changing anything.
    private func routeKeyAfterActivating(_ index: Int) -> RouteKey {
        let session = sessions[index]
        guard !session.isActive else { return currentRouteKey(index) }
        var owner = index
        if session.isMixable {
            // A mixable activation leaves the newest non-mixable owner in place unless it
            // interrupts it for its spokenAudio mode (I6).
            let interruptsSpoken = session.options.contains(.interruptSpokenAudioAndMixWithOthers)
            let survivor = activeSessions.last { other in
                sessions[other].isArbitratedNonMixable && !(interruptsSpoken && sessions[other].mode == .spokenAudio)
            }
            if let survivor { owner = survivor }
        }
        return currentRouteKey(index, owner: owner, ownerRoute: ownRoute(owner), config: session.routingConfig)
    }
}
