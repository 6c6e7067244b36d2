import AudioSessionModel

/// Interruptions (SPEC §5).
extension Engine {
    /// A2: a non-mixable activation interrupts every other active, non-mixable app session.
    mutating func interruptNonMixableOthers(of index: Int, _ context: inout StepContext) {
        let victims = activeSessions.reversed().filter { $0 != index && sessions[$0].isArbitratedNonMixable }
        for victim in victims { interrupt(victim, by: .app(index), reason: .default, &context) }
    }

    /// I6: other apps' active spokenAudio sessions are interrupted, and will always be told to resume.
    mutating func interruptSpokenAudio(of index: Int, _ context: inout StepContext) {
        let victims = activeSessions.reversed().filter {
            $0 != index && sessions[$0].takesPartInArbitration && sessions[$0].mode == .spokenAudio
        }
        for victim in victims {
            interrupt(victim, by: .app(index), reason: .default, &context)
            sessions[victim].resumesAlways = true
        }
    }

    /// I4: a system session interrupts every active app session that takes part (A8).
    mutating func interruptAll(by kind: SystemSessionKind, _ context: inout StepContext) {
        let victims = activeSessions.reversed().filter { sessions[$0].takesPartInArbitration }
        for victim in victims { interrupt(victim, by: .system(kind), reason: .default, &context) }
    }

    /// I1, I2: the session becomes inactive, its I/O stops, it is told `interruption began`, and
    /// the sessions it had interrupted pass to its interrupter (without an event).
    mutating func interrupt(
        _ victim: Int, by interrupter: Interrupter, reason: InterruptionReason, _ context: inout StepContext
    ) {
        let app = appIDs[victim]
        if sessions[victim].ioRunning {
            context.interruptions.append(
                .stopIO(app, output: sessions[victim].outputRunning, input: sessions[victim].inputRunning))
        }
        sessions[victim].outputRunning = false
        sessions[victim].inputRunning = false
        markInactive(victim)
        // RT7: an interruption of the session ends its override.
        if sessions[victim].overridesToSpeaker { reconfigure(victim, &context) { $0.overridesToSpeaker = false } }
        sessions[victim].interruptedBy = interrupter
        sessions[victim].resumesAlways = false
        // I2: hand on the sessions it interrupted; they follow the new interrupter's rule.
        for other in interruptedSessions where sessions[other].interruptedBy == .app(victim) {
            sessions[other].interruptedBy = interrupter
            sessions[other].resumesAlways = false
        }
        interruptedSessions.append(victim)
        context.interruptions.append(.notify(app, .interruptionBegan(reason: reason)))
    }

    /// I3, I4, I6, I7: ends the interruptions caused by `interrupter`, most recently activated first.
    mutating func endInterruptions(
        by interrupter: Interrupter, shouldResume: (SessionRecord) -> Bool, _ context: inout StepContext
    ) {
        var ended = interruptedSessions.filter { sessions[$0].interruptedBy == interrupter }
        guard !ended.isEmpty else { return }
        ended.sort { sessions[$0].activationOrder > sessions[$1].activationOrder }
        for index in ended {
            let resume = shouldResume(sessions[index])
            endInterruptedState(index)
            context.interruptions.append(.notify(appIDs[index], .interruptionEnded(shouldResume: resume)))
        }
    }

    /// The session is no longer interrupted (I3 end, or I5 reactivation).
    mutating func endInterruptedState(_ index: Int) {
        guard sessions[index].interruptedBy != nil else { return }
        sessions[index].interruptedBy = nil
        sessions[index].resumesAlways = false
        if let position = interruptedSessions.firstIndex(of: index) { interruptedSessions.remove(at: position) }
    }

    /// I7: while the built-in microphone is muted, sessions recording from it without
    /// overrideMutedMicrophoneInterruption are interrupted together, after the step's other effects.
    /// Returns whether it interrupted anyone.
    @discardableResult
    mutating func interruptMutedMicrophoneUsers(_ context: inout StepContext) -> Bool {
        guard device.microphoneMuted else { return false }
        var interruptedAnyone = false
        while true {
            let owner = routingOwner
            let ownerRoute = ownRoute(owner)
            let victims = activeSessions.reversed().filter { index in
                let session = sessions[index]
                guard session.inputRunning, session.takesPartInArbitration,
                    !session.options.contains(.overrideMutedMicrophoneInterruption)
                else { return false }
                return recordsFromBuiltInMicrophone(
                    currentRouteKey(index, owner: owner, ownerRoute: ownerRoute, config: session.routingConfig))
            }
            guard !victims.isEmpty else { return interruptedAnyone }
            interruptedAnyone = true
            for victim in victims { interrupt(victim, by: .microphoneMute, reason: .builtInMicMuted, &context) }
        }
    }
}
