import AudioSessionModel

/// The arbiter: every app's session and the device, as a pure, deterministic value.
///
/// Each step (`apply(_:)`) is atomic: it succeeds with all its effects or fails with none
/// (SPEC A7; A5 is the one exception), and its notifications are derived from the state
/// after the whole step (N1). No I/O, no clock, no threads: the same steps always give the
/// same effects.
///
/// ```swift
/// var engine = Engine(profile: .iphone)
/// try engine.register("com.example.music", capabilities: [.backgroundAudio])
/// let outcome = engine.apply(.app("com.example.music", .setActive(true)))
/// ```
public struct Engine: Hashable, Sendable {
    var device: DeviceState
    /// D1: the gain of a ducked session (default 0.2 linear).
    public var duckLevel: Double
    /// OA5: what other audio gets while a non-mixable app session plays (the device's choice).
    /// Changing it takes effect at the next step.
    public var otherAudioTreatment: OtherAudioTreatment = .mute
    var sessions: [SessionRecord] = []
    /// The app of each session, by the same index.
    var appIDs: [AppID] = []
    var indexByApp: [AppID: Int] = [:]
    /// Active app sessions in activation order (oldest first).
    var activeSessions: [Int] = []
    /// Sessions currently interrupted (I1), in no particular order.
    var interruptedSessions: [Int] = []
    /// Active system sessions, in the order they began (I4).
    var systemSessions: [SystemSessionKind] = []
    var activationCounter: UInt64 = 0
    /// Sessions grouped by routing configuration, so a change of owner is checked once per
    /// group rather than once per registered app (RT10, RT11).
    var routeGroups = RouteGroups()
    /// Sessions with an override or a preferred input (RT7, RT8), which later steps may end.
    var sessionsWithRoutingChoice: [Int] = []
    /// Streams of programs that do not use us, in the order they started (OA1).
    var otherAudio: [OtherAudioRecord] = []
    /// How many session slots are free: their app departed (`Step.departure`), and the next app
    /// to register takes one, so the engine's size follows the apps present, not every app that
    /// ever came (issue 18, "history costs nothing"). A free slot's app id is empty.
    var departedCount = 0
    /// The free slots, the most recently freed last.
    var freeSlots: [Int] = []
    /// MS3: media services are lost (the sound server went away) until `mediaServicesReset`:
    /// app calls fail with `msrv` and apps are told nothing else meanwhile.
    public internal(set) var mediaServicesLost = false

    /// A device of the given profile with no apps, volume 1, unlocked, switch off (SPEC §9.1).
    public init(profile: DeviceProfile = .iphone, duckLevel: Double = 0.2) {
        self.device = DeviceState(profile: profile)
        self.duckLevel = duckLevel
    }

    /// The device profile.
    public var profile: DeviceProfile { device.profile }

    /// Registers an app with a new session (C8 defaults). While the screen is locked the app
    /// starts in the background (D3).
    /// An app whose process departed (`Step.departure`) may register again: it gets a new session.
    /// - Throws: `SessionError` -50 if the app id is empty or already registered.
    public mutating func register(
        _ app: AppID, capabilities: AppCapabilities = [], state: AppState = .foreground
    ) throws(SessionError) {
        guard !app.rawValue.isEmpty else { throw SessionError(.badParam, "app ids must not be empty") }
        guard indexByApp[app] == nil else { throw SessionError(.badParam, "app \(app) is already registered") }
        var record = SessionRecord(capabilities: capabilities)
        record.requestedState = state  // T1: in the system trust mode the device says where an app starts
        if let index = freeSlots.popLast() {
            return reuseFreeSlot(index, for: app, record)
        }
        let index = sessions.count
        sessions.append(record)
        appIDs.append(app)
        indexByApp[app] = index
        routeGroups.insert(index, sessions[index].routingConfig)
    }

    /// Every app present (registered and not departed), in the order of their session slots.
    public var apps: [AppID] { departedCount == 0 ? appIDs : appIDs.filter { !$0.rawValue.isEmpty } }

    /// Apps whose session is active, oldest activation first.
    public var activeApps: [AppID] { activeSessions.map { appIDs[$0] } }

    /// Whether a system session (call, alarm, Siri) is active.
    public func isSystemSessionActive(_ kind: SystemSessionKind) -> Bool { systemSessions.contains(kind) }

    /// Applies one step and returns its result and effects (SPEC §0 "step").
    public mutating func apply(_ step: Step) -> StepOutcome {
        if mediaServicesLost, case .app(_, let call) = step, call.needsMediaServices {
            // MS1, MS3: calls made while media services are lost fail (nothing changes, A7).
            return StepOutcome(
                error: SessionError(
                    .mediaServicesFailed,
                    "MS1: media services are lost (the sound server went away); wait for media-services-reset"))
        }
        let owner = routingOwner
        var context = StepContext(ownerBefore: owner, ownerRouteBefore: ownRoute(owner))
        let wasLost = mediaServicesLost
        if wasLost { context.suppressDerived = true }
        let error: SessionError?
        do {
            try perform(step, &context)
            error = nil
        } catch let failure where failure.code == .isBusy {
            error = failure  // A5: an error, but the deactivation happened
        } catch {
            return StepOutcome(error: error)  // A7: nothing changed, nothing sent
        }
        finishStep(&context)
        var effects = withoutNotificationsToDeparted(context.takeEffects())
        if wasLost && mediaServicesLost { effects.removeAll(where: \.isToAnApp) }  // MS3: apps hear nothing while lost
        return StepOutcome(error: error, effects: effects)
    }

    private mutating func perform(_ step: Step, _ context: inout StepContext) throws(SessionError) {
        switch step {
        case .app(let app, let call):
            guard let index = indexByApp[app] else { throw SessionError(.badParam, "app \(app) is not registered") }
            try perform(call, index, &context)
        case .system(let event):
            try perform(event, &context)
        case .recordPermissionAnswer(let app, let granted):
            try answerRecordPermission(app, granted: granted, &context)
        case .departure(let app):
            guard let index = indexByApp[app] else { throw SessionError(.badParam, "app \(app) is not registered") }
            depart(index, &context)
        }
    }

    private mutating func perform(_ call: AppCall, _ index: Int, _ context: inout StepContext) throws(SessionError) {
        switch call {
        case .setCategory(let category, let mode, let options):
            try setCategory(index, category, mode, options, &context)
        case .setMode(let mode):
            try setMode(index, mode, &context)
        case .setActive(true, _):
            try activate(index, &context)  // A6: options are ignored when activating
        case .setActive(false, let options):
            try deactivate(index, notifyOthers: options.contains(.notifyOthersOnDeactivation), &context)
        case .startOutput: try startOutput(index, &context)
        case .stopOutput: stopIO(index, output: true)
        case .startInput: try startInput(index, &context)
        case .stopInput: stopIO(index, output: false)
        case .setAppState(let state): sessions[index].requestedState = state
        case .requestRecordPermission: requestRecordPermission(index, &context)
        case .overrideOutput(let port): try overrideOutput(index, port, &context)
        case .setPreferredInput(let uid): try setPreferredInput(index, uid, &context)
        case .setInputDataSource(let name): try setInputDataSource(index, name, &context)
        case .setPreferences(let preferences): try setPreferences(index, preferences)
        case .setInputGain(let gain): try setInputGain(index, gain)
        }
    }
}
