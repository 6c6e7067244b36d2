import AudioSessionModel

/// RT13: the user's choice of output wins — device-wide (a sound server's default output) and,
/// for one app, a stream moved by hand.
extension Engine {
    /// RT13 (a): the device-wide output choice, a connected output port's UID, or `nil` for none.
    /// Every session whose route it moves is told `override`. The choice is kept while its port
    /// is away (a server keeps its configured default so) and used again when it is back.
    mutating func chooseOutput(uid: String?, _ context: inout StepContext) throws(SessionError) {
        if let uid, device.ports.outputSlot(uid: uid) == nil {
            throw SessionError(.badParam, "RT13: \(uid) is not a connected output (outputs: \(connectedOutputs))")
        }
        guard device.ports.outputChoice != uid else { return }
        context.deviceChanged(from: device.ports, cause: .userChoice)
        device.ports.choose(output: uid)
    }

    /// RT13 (b): the user moved an app's audio to a connected output its configuration may use
    /// (the speaker, or an output RT2 makes eligible); `nil` ends the choice. Like a preferred
    /// input (RT8), it lasts until its port goes away or stops being eligible (`endStaleRoutingChoices`).
    mutating func chooseOutput(for app: AppID, uid: String?, _ context: inout StepContext) throws(SessionError) {
        guard let index = indexByApp[app] else { throw SessionError(.badParam, "app \(app) is not registered") }
        var chosen: PortSlot?
        if let uid {
            guard let slot = device.ports.outputSlot(uid: uid) else {
                throw SessionError(.badParam, "RT13: \(uid) is not a connected output (outputs: \(connectedOutputs))")
            }
            let config = sessions[index].routingConfig
            guard RouteSelection.isChoosableOutput(device.ports.slots[slot].type, config) else {
                throw SessionError(
                    .badParam,
                    "RT13: \(uid) (\(device.ports.slots[slot].type)) is no output \(config.category)"
                        + " (mode \(config.mode)) may use")
            }
            chosen = device.ports.slots[slot]
        }
        guard sessions[index].chosenOutput != chosen else { return }
        context.cause = .userChoice
        reconfigure(index, &context) { $0.chosenOutput = chosen }
    }

    /// RT13 (b): whether the session's chosen output is still connected and eligible.
    func isChosenOutputUsable(_ index: Int) -> Bool {
        guard let chosen = sessions[index].chosenOutput else { return true }
        return device.ports.slots.contains(chosen)
            && RouteSelection.isChoosableOutput(chosen.type, sessions[index].routingConfig)
    }

    private var connectedOutputs: String {
        let uids = device.ports.ports.filter { !$0.isInput }.map(\.port.uid)
        return uids.isEmpty ? "none" : uids.joined(separator: ", ")
    }
}
