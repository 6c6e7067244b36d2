import AudioSessionModel

/// PL8 (revision 5), *headphones out*: a player's session (§16) playing through a private device
/// that goes away — a route change with reason oldDeviceUnavailable whose previous output was
/// headphones, Bluetooth or USB — has its output stopped in that same step: its streams are
/// muted from the unplug (nothing it plays is heard from the speaker), and the players bridge,
/// seeing the route change with the output stopped, tells the player `Pause`. Nothing resumes it
/// when the device comes back. As an iOS player pauses itself on oldDeviceUnavailable; here the
/// device does it for players that never heard of us.
extension Engine {
    /// Whether an app's session is a player's that pauses when its private output goes away
    /// (the runtime says so as it registers a player, per `policy.players-pause-on-device-loss`).
    /// Not a step: a fact about the app, as its capabilities are.
    public mutating func setPausesOnDeviceLoss(_ app: AppID, _ pauses: Bool) {
        guard let index = indexByApp[app] else { return }
        sessions[index].pausesOnDeviceLoss = pauses
    }

    /// After the step's route changes: each such session whose private output went away stops output.
    mutating func stopPlayersOnDeviceLoss(_ context: inout StepContext) {
        guard context.cause == .unplug else { return }
        for effect in context.routeChanges {
            guard case .notify(let app, .routeChange(.oldDeviceUnavailable, let previous, _)) = effect,
                previous.outputs.contains(where: \.type.isPrivate), let index = indexByApp[app],
                sessions[index].pausesOnDeviceLoss, sessions[index].isActive
            else { continue }
            stopIO(index, output: true, input: false, &context)
        }
    }
}
