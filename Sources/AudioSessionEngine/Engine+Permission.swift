import AudioSessionModel

/// Record permission (SPEC P1–P3).
extension Engine {
    /// P2: an undetermined permission asks the user once; a decided one is delivered at once.
    mutating func requestRecordPermission(_ index: Int, _ context: inout StepContext) {
        let app = appIDs[index]
        switch device.recordPermission(of: app) {
        case .granted: context.rest.append(.notify(app, .recordPermission(granted: true)))
        case .denied: context.rest.append(.notify(app, .recordPermission(granted: false)))
        case .undetermined: askRecordPermission(index, &context)
        }
    }

    /// P2, P3: shows the prompt unless it is already showing (asking again delivers nothing).
    mutating func askRecordPermission(_ index: Int, _ context: inout StepContext) {
        let app = appIDs[index]
        guard device.pendingPermissionPrompts.insert(app).inserted else { return }
        context.requests.append(.askRecordPermission(app))
    }

    /// P2: the user answered the prompt; the answer is stored and delivered.
    mutating func answerRecordPermission(_ app: AppID, granted: Bool, _ context: inout StepContext) throws(SessionError) {
        guard device.pendingPermissionPrompts.contains(app) else {
            throw SessionError(.badParam, "P2: no record-permission prompt is showing for \(app)")
        }
        device.pendingPermissionPrompts.remove(app)
        device.recordPermissions[app] = granted ? .granted : .denied
        if indexByApp[app] != nil { context.rest.append(.notify(app, .recordPermission(granted: granted))) }
    }
}
