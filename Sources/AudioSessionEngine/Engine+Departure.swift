import AudioSessionModel

/// An app's process ending: what the daemon does when a connection drops (issue 4, "client
/// death"), so that no one stays ducked, silenced or interrupted because of a dead app.
extension Engine {
    /// Stops the session's I/O, deactivates it with notify-others (A6: the interruptions it
    /// caused end with shouldResume, its ducking and silencing end with it, D4, C11) and frees
    /// its slot for the next app to register: nothing of the session is kept. A pending
    /// permission prompt is withdrawn; the app's record permission (device state, P1) is kept.
    mutating func depart(_ index: Int, _ context: inout StepContext) {
        stopIO(index, output: true, input: true, &context)
        // I/O is stopped, so A5 cannot apply and this cannot throw.
        try? deactivate(index, notifyOthers: true, &context)
        endInterruptedState(index)
        let app = appIDs[index]
        device.pendingPermissionPrompts.remove(app)
        replaceSession(index, with: SessionRecord(capabilities: []))
        sessions[index].hasDeparted = true
        indexByApp[app] = nil
        appIDs[index] = AppID("")  // effects addressed to it are dropped (`withoutNotificationsToDeparted`)
        freeSlots.append(index)
        departedCount += 1
    }

    /// A departed app has no process left to tell: its notifications and gains are dropped;
    /// `stopIO` stays, for the backend to stop the streams it left behind.
    func withoutNotificationsToDeparted(_ effects: [Effect]) -> [Effect] {
        guard departedCount > 0 else { return effects }
        return effects.filter { effect in
            switch effect {
            case .notify(let app, _), .outputGain(let app, _): isPresent(app)
            case .stopIO, .askRecordPermission, .otherAudio, .otherAudioStopped: true
            }
        }
    }

    /// A new app takes a free slot: a new session with its capabilities.
    mutating func reuseFreeSlot(_ index: Int, for app: AppID, _ record: SessionRecord) {
        replaceSession(index, with: record)
        appIDs[index] = app
        indexByApp[app] = index
        departedCount -= 1
    }

    /// Replaces a session record, keeping the route groups and the routing-choice list in step.
    private mutating func replaceSession(_ index: Int, with record: SessionRecord) {
        routeGroups.remove(index, sessions[index].routingConfig)
        sessions[index] = record
        routeGroups.insert(index, record.routingConfig)
        if let position = sessionsWithRoutingChoice.firstIndex(of: index) {
            sessionsWithRoutingChoice.remove(at: position)
        }
    }

    /// Whether the app is registered and its process has not departed.
    public func isPresent(_ app: AppID) -> Bool { indexByApp[app] != nil }
}
