/// One call an app makes on its own session (SPEC §0 "step").
public enum AppCall: Hashable, Sendable {
    /// C9, C10, O1, M1, A9. Options and mode not given are reset.
    case setCategory(Category, mode: Mode = .default, options: CategoryOptions = [])
    /// M1, M3, A9.
    case setMode(Mode)
    /// A1–A9.
    case setActive(Bool, options: SetActiveOptions = [])
    /// IO1–IO2: output (playback) starts running.
    case startOutput
    case stopOutput
    /// IO1–IO2, P3: input (recording) starts running.
    case startInput
    case stopInput
    /// D3, D5, A4: the app moves to the foreground or the background.
    case setAppState(AppState)
    /// P2.
    case requestRecordPermission
    /// RT7: `overrideOutputAudioPort`.
    case overrideOutput(PortOverride)
    /// RT8: `setPreferredInput`, by port UID; `nil` clears.
    case setPreferredInput(String?)
    /// RT12: selects a data source of the current input, by name.
    case setInputDataSource(String)
    /// HW3, HW4: preferences, applied in order; the first failure fails the whole step.
    case setPreferences([HardwarePreference])
    /// HW6: the current input's gain, 0…1.
    case setInputGain(Double)
}

/// RT7: the output port override (§13: none 0, speaker `spkr`).
public enum PortOverride: UInt32, Hashable, Sendable, CustomStringConvertible {
    case none = 0
    case speaker = 1_936_747_378

    public var description: String { self == .none ? "none" : "speaker" }
}

/// An event of the system or the device (SPEC §0 "step").
public enum SystemEvent: Hashable, Sendable {
    /// D2 (iphone only, else -50).
    case silentSwitch(on: Bool)
    /// D3.
    case lock
    case unlock
    /// I4: a call, alarm or Siri begins (`begin: true`) or ends.
    case systemSession(SystemSessionKind, begin: Bool)
    /// I7: the built-in microphone is muted or unmuted.
    case microphoneMute(on: Bool)
    /// HW7: the output volume, 0…1.
    case outputVolume(Double)
    /// HW6 from the device's side **(beyond SPEC)**: an input port's gain was changed on the
    /// device itself (on a sound server: the source's volume), 0…1. No notification (HW6 has
    /// none); sessions read it as `inputGain`.
    case inputGain(uid: String, Double)
    /// §9.1, RT11: an accessory is plugged in; without a UID it gets `<kind>-<n>`. With a
    /// sample rate, its ports run at that one rate (a sound server's device), not at their type's
    /// rates (HW1).
    case plug(AccessoryKind, uid: String? = nil, sampleRate: Double? = nil)
    /// §9.1, RT11, I8: the accessory with this UID is unplugged.
    case unplug(uid: String)
    /// RT11: the device wakes from sleep.
    case wake
    /// MS1, MS2: media services come back (after `mediaServicesLost`), or — simulated — are
    /// lost and come back in one step.
    case mediaServicesReset
    /// MS1, MS3: media services are lost (the sound server went away) until `mediaServicesReset`.
    case mediaServicesLost
    /// RT13 (a): the user's device-wide output choice (on a sound server, its default output),
    /// a connected output's UID; `nil`: none (RT3's "last in wins").
    case outputChoice(uid: String?)
    /// RT13 (b): the user moved an app's audio to this output (on a sound server, its stream in a
    /// mixer); `nil` ends the app's choice.
    case appOutputChoice(AppID, uid: String?)
    /// OA1 **(beyond SPEC)**: a stream of a program that does not use us starts playing (on a
    /// sound server: another app's stream). -50 for an id already playing.
    case otherAudioStarted(OtherAudio)
    /// The stream of other audio with this id stopped. -50 for an id not playing.
    case otherAudioStopped(id: String)
}

/// One step (SPEC §0): an app call, a system event, or the permission agent's answer.
public enum Step: Hashable, Sendable {
    case app(AppID, AppCall)
    case system(SystemEvent)
    /// P2: the user answered the record-permission prompt shown for an app.
    case recordPermissionAnswer(AppID, granted: Bool)
    /// The app's process ended (in the daemon: its connection dropped). Its session is
    /// deactivated as if it had called `setActive(false, .notifyOthersOnDeactivation)` and
    /// reset to C8 defaults; a later `register` of the same id starts afresh.
    case departure(AppID)
}
