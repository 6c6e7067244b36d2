import AudioSession
import AudioSessionModel
import AudioSessionWire
import Foundation

/// The device and its apps as the page reads them (`GET /state`).
enum Snapshot {
    /// `daemonGoneSince`: while the daemon is away, the snapshot is the last one seen.
    static func json(_ snapshot: DeviceSnapshot, daemonGoneSince: Date? = nil) throws -> Data {
        let device = snapshot.device
        let state: [String: Any] = [
            "profile": device.profile.name,
            "outputs": device.outputs.map(port),
            "inputs": device.inputs.map(port),
            "routingOwner": device.routingOwner?.rawValue ?? NSNull(),
            // T4: the route is the device's; a monitor of another uid reads it without its owner.
            "route": device.route == .none ? NSNull() : route(device.route),
            "systemSessions": device.systemSessions.map(\.description),
            "outputVolume": device.outputVolume,
            "locked": device.isLocked,
            "silentSwitch": device.silentSwitchOn,
            "microphoneMuted": device.microphoneMuted,
            "otherAudio": device.otherAudio.map { other -> [String: Any] in
                [
                    "id": other.audio.id, "name": other.audio.name, "role": other.audio.role ?? "", "gain": other.gain,
                    "muted": other.isMuted,
                ]
            },
            "apps": snapshot.apps.map { app -> [String: Any] in
                [
                    "app": app.app.rawValue, "pid": app.pid, "uid": app.uid, "category": "\(app.category)", "mode": "\(app.mode)",
                    "options": "\(app.options)", "active": app.isActive, "interrupted": app.isInterrupted,
                    "output": app.isOutputRunning, "input": app.isInputRunning, "gain": app.outputGain, "route": route(app.route),
                    "player": app.player ?? NSNull(), "kind": "\(app.kind)", "policy": app.policy ?? NSNull(),
                    "streams": app.streams,
                ]
            },
            "omittedApps": snapshot.omittedApps,
            // MS3: milliseconds since 1970, or null while media services stand.
            "mediaServicesLostSince": snapshot.mediaServicesLostSince.map { Int($0 / 1_000_000) } ?? NSNull(),
            "violations": snapshot.violations,
            // Milliseconds since 1970, or null while the live view is connected to its daemon.
            "daemonGoneSince": daemonGoneSince.map { Int($0.timeIntervalSince1970 * 1000) } ?? NSNull(),
        ]
        return try JSONSerialization.data(withJSONObject: state, options: [.sortedKeys])
    }

    static func port(_ port: AudioSessionModel.Port) -> [String: Any] {
        ["type": port.type.rawValue, "name": port.name, "uid": port.uid]
    }

    static func route(_ route: Route) -> String { "\(route)" }
}
