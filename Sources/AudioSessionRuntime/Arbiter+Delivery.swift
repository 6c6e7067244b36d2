import AudioSessionEngine
import AudioSessionModel
import AudioSessionWire

extension Arbiter {
    /// Hands a step's effects to the connections, in engine order: notifications to their app
    /// (and, stamped, to subscribers), gains and I/O stops to their app, permission prompts to
    /// controllers or to the configured policy.
    func deliver(_ effects: [Effect], _ state: inout State) {
        var device: [DeviceEffect] = []
        var readers: [Connection]?  // the subscribers, looked up once per step, not per notification
        for effect in effects {
            switch effect {
            case .notify(let app, let notification):
                state.sequence += 1
                let sequence = state.sequence
                state.connectionByApp[app]?.sink.send(.event(.notification(sequence: sequence, notification)))
                keepForHeldPlayer(app, notification, &state)  // PL9
                guard !state.subscribers.isEmpty else { continue }
                let observed = ServerMessage.event(
                    .observed(sequence: sequence, time: configuration.now(), app: app, notification))
                // A subscriber that may not control the system hears only its own uid's apps.
                let uid = state.uid(of: app)
                if readers == nil { readers = state.subscribers.compactMap { state.connections[$0] } }
                for subscriber in readers ?? [] where subscriber.sees(uid) { subscriber.sink.send(observed) }
            case .outputGain(let app, let gain):
                state.connectionByApp[app]?.sink.send(.event(.outputGain(gain)))
                device.append(.outputGain(app, gain))
            case .stopIO(let app, let output, let input):
                state.connectionByApp[app]?.sink.send(.event(.stopIO(output: output, input: input)))
                device.append(.stopIO(app, output: output, input: input))
            case .askRecordPermission(let app):
                askRecordPermission(app, &state)
            case .otherAudio(let id, let gain, let muted):
                // POL3: a ducked stream of a role with a duck level of its own is ducked to that level.
                // (A silenced stream, gain 0 by C11, stays silent.)
                let level = gain > 0 && gain < 1 ? state.rules.policy.duckLevel(forRole: state.otherAudioRoles[id]) : nil
                device.append(.otherAudio(id: id, gain: level ?? gain, muted: muted))
            case .otherAudioStopped(let id):
                device.append(.otherAudioStopped(id: id))
            }
        }
        state.backend?.carryOut(device)  // the one door (AudioBackend)
    }

    /// P2: the policy answers at once, or connected controllers are asked; with none, P4.
    private func askRecordPermission(_ app: AppID, _ state: inout State) {
        switch state.rules.permissionPolicy {
        case .grant, .deny:
            answerRecordPermission(app, granted: state.rules.permissionPolicy == .grant, &state)
        case .ask:
            let controllers = state.connections.values.filter(\.isSystemController)
            guard controllers.isEmpty else {
                for controller in controllers { controller.sink.send(.event(.permissionPrompt(app))) }
                return
            }
            askWithoutController(app, &state)  // P4
        }
    }

    /// Applies an answer to an app's record permission: stored (P1) and delivered (P2).
    func answerRecordPermission(_ app: AppID, granted: Bool, _ state: inout State) {
        let step = Step.recordPermissionAnswer(app, granted: granted)
        deliver(state.engine.apply(step).effects, &state)
        persistIfChanged(after: step, &state)
    }
}
