import AudioSessionModel

/// One stream of other audio the engine governs, with what the backend was last told.
struct OtherAudioRecord: Hashable, Sendable {
    var audio: OtherAudio
    var reportedGain: Double?
    var reportedMuted: Bool?
}

/// Other audio as the engine's own concept **(beyond SPEC, decision)**: streams of programs that
/// do not use us. They count in every session's `otherAudioPlaying` (OA1) and are governed as a
/// mixable, playing playback session of another app would be — ducked while an app's
/// duckOthers session is active (D1), silenced while a record session is active (C11), muted
/// while a non-mixable app session plays or a system session is on (OA2, I4: a client cannot
/// pause another's stream) — but they are no app: no session, no notifications, never the
/// routing owner, and they survive a media-services reset as device state does.
extension Engine {
    /// OA1: a stream starts. -50 for an invalid id or label, or an id already playing.
    mutating func startOtherAudio(_ audio: OtherAudio) throws(SessionError) {
        guard Port.isValidUID(audio.id) else {
            throw SessionError(.badParam, "OA1: an other-audio id is made of letters, digits and . _ : - (not \"\(audio.id)\")")
        }
        guard OtherAudio.isValidLabel(audio.name), audio.role.map(OtherAudio.isValidLabel) ?? true else {
            throw SessionError(.badParam, "OA1: other audio's name and role are printable text of at most 255 bytes")
        }
        guard !otherAudio.contains(where: { $0.audio.id == audio.id }) else {
            throw SessionError(.badParam, "OA1: other audio \(audio.id) is already playing")
        }
        otherAudio.append(OtherAudioRecord(audio: audio))
    }

    /// OA1: a stream stops. -50 for an id that is not playing, naming those that are.
    mutating func stopOtherAudio(id: String, _ context: inout StepContext) throws(SessionError) {
        guard let position = otherAudio.firstIndex(where: { $0.audio.id == id }) else {
            let playing = otherAudio.isEmpty ? "none" : otherAudio.map(\.audio.id).joined(separator: ", ")
            throw SessionError(.badParam, "OA1: no other audio \(id) is playing (playing: \(playing))")
        }
        otherAudio.remove(at: position)
        context.requests.append(.otherAudioStopped(id: id))
    }

    /// D1, C11, OA4, OA5, I4: the gain and mute every stream of other audio gets now. While a
    /// non-mixable app session plays, `otherAudioTreatment` decides (OA5); a call, a system
    /// session and a record session are the same whatever it says.
    func otherAudioControl(_ gains: GainInputs, _ playing: PlayingInputs) -> (gain: Double, muted: Bool) {
        let nonMixable = playing.nonMixablePlaying.0 != nil
        let ducked = gains.duckers.0 != nil || (nonMixable && otherAudioTreatment == .duck)
        let gain = gains.recorders.0 != nil ? 0 : ducked ? duckLevel : 1
        let muted = playing.systemPlaying || playing.callPlaying || (nonMixable && otherAudioTreatment == .mute)
        return (gain, muted)
    }

    /// After every step: the backend is told each stream whose gain or mute changed (and each
    /// new one once).
    mutating func sendOtherAudioChanges(_ context: inout StepContext) {
        guard !otherAudio.isEmpty else { return }
        let control = otherAudioControl(gainInputs(), playingInputs())
        for index in otherAudio.indices {
            let record = otherAudio[index]
            guard record.reportedGain != control.gain || record.reportedMuted != control.muted else { continue }
            otherAudio[index].reportedGain = control.gain
            otherAudio[index].reportedMuted = control.muted
            context.requests.append(.otherAudio(id: record.audio.id, gain: control.gain, muted: control.muted))
        }
    }

    /// The streams of other audio, in the order they started, as the device status shows them.
    public var otherAudioStatus: [OtherAudioStatus] {
        guard !otherAudio.isEmpty else { return [] }
        let control = otherAudioControl(gainInputs(), playingInputs())
        return otherAudio.map { OtherAudioStatus(audio: $0.audio, gain: control.gain, isMuted: control.muted) }
    }
}

extension Engine {
    /// OA5: the device's choice changed (a reloaded configuration): the streams of other audio
    /// whose gain or mute it changes are told so, as after a step. No app hears of it.
    public mutating func setOtherAudioTreatment(_ treatment: OtherAudioTreatment) -> [Effect] {
        otherAudioTreatment = treatment
        var context = StepContext(ownerBefore: routingOwner, ownerRouteBefore: ownRoute(routingOwner))
        sendOtherAudioChanges(&context)
        return context.takeEffects()
    }
}
