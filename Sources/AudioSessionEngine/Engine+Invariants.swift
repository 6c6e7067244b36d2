import AudioSessionModel

/// The engine checking itself: rules that must hold after every step, whatever the steps were.
/// The soak command asks a running daemon for them, the fuzzer and the property tests check
/// them after each step. An empty list is a healthy engine.
extension Engine {
    /// Each broken invariant, named by its SPEC rule and the app concerned; empty when all hold.
    public var invariantViolations: [String] {
        var found: [String] = []
        checkActivation(&found)
        checkGains(&found)
        checkRouting(&found)
        checkOtherAudio(&found)
        return found
    }

    /// OA1: each stream of other audio once, and what the backend was told matches the rules.
    private func checkOtherAudio(_ found: inout [String]) {
        if Set(otherAudio.map(\.audio.id)).count != otherAudio.count {
            found.append("OA1: a stream of other audio is listed twice")
        }
        let control = otherAudioControl(gainInputs(), playingInputs())
        if otherAudio.contains(where: { $0.reportedGain != control.gain || $0.reportedMuted != control.muted }) {
            found.append("D1/OA2: other audio was told a gain or mute the rules no longer give")
        }
    }

    /// A2, I1, departures: who is active and who is interrupted, and the lists that index them.
    private func checkActivation(_ found: inout [String]) {
        let nonMixable = activeSessions.filter { sessions[$0].isArbitratedNonMixable }
        if nonMixable.count > 1 {
            found.append("A2: more than one active non-mixable session: \(nonMixable.map { appIDs[$0] })")
        }
        let active = sessions.indices.filter { sessions[$0].isActive }
        if Set(activeSessions) != Set(active) || activeSessions.count != active.count {
            found.append(
                "activation list out of step: listed \(activeSessions.map { appIDs[$0] }), active \(active.map { appIDs[$0] })")
        }
        let interrupted = sessions.indices.filter { sessions[$0].interruptedBy != nil }
        if Set(interruptedSessions) != Set(interrupted) || interruptedSessions.count != interrupted.count {
            found.append("interruption list out of step with the sessions")
        }
        for index in sessions.indices {
            let session = sessions[index]
            if session.isActive, session.interruptedBy != nil {
                found.append("I1: \(appIDs[index]) is active and interrupted")
            }
            if session.ioRunning, !session.isActive {
                found.append("IO1: \(appIDs[index]) runs I/O without an active session")
            }
            if session.hasDeparted, session.isActive || session.interruptedBy != nil {
                found.append("departure: \(appIDs[index]) departed but is still active or interrupted")
            }
        }
        // Departures free their slot: every slot is an app present or free, never both.
        let free = Set(freeSlots)
        if free.count != freeSlots.count || free.count != departedCount || indexByApp.count + free.count != sessions.count
            || free.contains(where: { !sessions[$0].hasDeparted || !appIDs[$0].rawValue.isEmpty })
        {
            found.append("departure: the free session slots are out of step with the apps present")
        }
        // RT9, A8: an owner exactly when an active session takes part in arbitration.
        if (routingOwner == nil) != !activeSessions.contains(where: { sessions[$0].takesPartInArbitration }) {
            found.append("RT9: the routing owner and the active sessions disagree")
        }
    }

    /// D4: every active session's backend was told the gain it has now.
    private func checkGains(_ found: inout [String]) {
        let inputs = gainInputs()
        for index in activeSessions where sessions[index].reportedGain != outputGain(index, inputs) {
            found.append(
                "D4: \(appIDs[index]) was told gain \(sessions[index].reportedGain), has \(outputGain(index, inputs))")
        }
    }

    /// RT7, RT8, RT10: routing choices that are still valid, and groups that hold every session.
    private func checkRouting(_ found: inout [String]) {
        for index in sessions.indices {
            if sessions[index].overridesToSpeaker, sessions[index].category != .playAndRecord {
                found.append("RT7: \(appIDs[index]) overrides to the speaker outside playAndRecord")
            }
            if !isPreferredInputAvailable(index) {
                found.append("RT8: \(appIDs[index]) prefers an input that is not available")
            }
        }
        if Set(sessionsWithRoutingChoice) != Set(sessions.indices.filter { sessions[$0].hasRoutingChoice }) {
            found.append("RT7/RT8: the list of sessions with a routing choice is out of step")
        }
        var expected = RouteGroups()
        for index in sessions.indices { expected.insert(index, sessions[index].routingConfig) }
        let actual = Dictionary(uniqueKeysWithValues: routeGroups.groups.map { ($0.config, $0.members) })
        let wanted = Dictionary(uniqueKeysWithValues: expected.groups.map { ($0.config, $0.members) })
        if actual != wanted {
            found.append("RT10: the route groups do not hold every session under its configuration")
        }
    }
}
