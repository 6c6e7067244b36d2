import AudioSessionModel

/// Other audio and the secondary-audio hint (SPEC OA1–OA3).
extension Engine {
    /// Who is playing, gathered in one pass over the active sessions.
    struct PlayingInputs {
        /// Active app sessions with output running (OA1), and the non-mixable ones (OA2);
        /// at most two of each are needed to know whether *another* app has one.
        var playing: (Int?, Int?) = (nil, nil)
        var nonMixablePlaying: (Int?, Int?) = (nil, nil)
        /// System sessions are active with output running from begin to end (§0).
        var systemPlaying = false
        /// Streams of programs that do not use us are playing.
        var otherAudioPlaying = false
        /// OA5: a non-mixable call (voiceChat or videoChat) is active with output running.
        var callPlaying = false
    }

    func playingInputs() -> PlayingInputs {
        var inputs = PlayingInputs(systemPlaying: !systemSessions.isEmpty, otherAudioPlaying: !otherAudio.isEmpty)
        for index in activeSessions where sessions[index].outputRunning {
            GainInputs.add(index, to: &inputs.playing)
            if !sessions[index].isMixable {
                GainInputs.add(index, to: &inputs.nonMixablePlaying)
                if sessions[index].isCall { inputs.callPlaying = true }
            }
        }
        return inputs
    }

    /// OA1: another app's session or a system session is active with output running, or a
    /// program that does not use us plays.
    func isOtherAudioPlaying(_ index: Int, _ inputs: PlayingInputs) -> Bool {
        inputs.systemPlaying || inputs.otherAudioPlaying || GainInputs.another(inputs.playing, than: index)
    }

    /// OA2: another app's non-mixable session, or a system session, is active with output running.
    func secondaryAudioShouldBeSilenced(_ index: Int, _ inputs: PlayingInputs) -> Bool {
        inputs.systemPlaying || GainInputs.another(inputs.nonMixablePlaying, than: index)
    }

    /// OA3: `begin` when (active ∧ mixable ∧ OA2) turns true, `end` when it turns false while
    /// the session stays active. A deactivated or interrupted session was reset silently.
    mutating func sendHintChanges(_ context: inout StepContext) {
        let inputs = playingInputs()
        for index in activeSessions {
            let hint = sessions[index].isMixable && secondaryAudioShouldBeSilenced(index, inputs)
            guard hint != sessions[index].hintOn else { continue }
            sessions[index].hintOn = hint
            context.hints.append(.notify(appIDs[index], .silenceSecondaryAudioHint(hint ? .begin : .end)))
        }
    }
}
