import AudioSessionModel

/// What every step ends with: the effects derived from the state after the whole step (N1).
extension Engine {
    /// I7 after the step's other effects, then route changes (RT11), hints (OA3) and gains (D4),
    /// appended by delivery phase (N2).
    mutating func finishStep(_ context: inout StepContext) {
        if context.suppressDerived {
            // MS2: the reset step sends media-services notifications only; hints and gains start afresh.
            for index in sessions.indices {
                sessions[index].hintOn = false
                sessions[index].reportedGain = 1
            }
            sendOtherAudioChanges(&context)  // for the backend: no notification
            return
        }
        // RT7/RT8 choices that the step made stale go first: they move inputs (I7) and an I7
        // interruption can change the owner again.
        repeat { endStaleRoutingChoices(&context) } while interruptMutedMicrophoneUsers(&context)
        stopInputWithoutRoute(&context)
        sendRouteChanges(&context)
        stopPlayersOnDeviceLoss(&context)  // PL8
        if context.wake {
            // RT11: every active app session is told wakeFromSleep with previous = current.
            for index in activeSessions {
                let route = currentRoute(index)
                context.routeChanges.append(
                    .notify(appIDs[index], .routeChange(reason: .wakeFromSleep, previous: route, current: route)))
            }
        }
        sendHintChanges(&context)
        sendGainChanges(&context)
        sendOtherAudioChanges(&context)
    }

    /// IO3: input I/O stops when the session's route loses its last input (the app learns it
    /// from RT11's noSuitableRouteForCategory).
    private mutating func stopInputWithoutRoute(_ context: inout StepContext) {
        for index in activeSessions where sessions[index].inputRunning && currentRouteKey(index).inputs == 0 {
            stopIO(index, output: false, input: true, &context)
        }
    }
}
