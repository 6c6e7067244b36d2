import AudioSession
import AudioSessionWire
import Foundation

/// How `status` and `events` print what the daemon says.
enum StatusPrinter {
    static func text(_ snapshot: DeviceSnapshot) -> String {
        let device = snapshot.device
        var flags = ""
        if device.isLocked { flags += "  locked" }
        if device.silentSwitchOn { flags += "  silent" }
        if device.microphoneMuted { flags += "  mic-muted" }
        let systemSessions = device.systemSessions.map(\.description).joined(separator: " ")
        var lines: [String] = []
        lines.append("device \(device.profile)  volume \(device.outputVolume)  duck-level \(device.duckLevel)\(flags)")
        if let since = snapshot.mediaServicesLostSince {
            // MS3: the sound server went away; app calls fail with msrv until it is back.
            lines.append("MEDIA SERVICES LOST since \(time(since)) UTC (the sound server is gone; app calls fail with msrv)")
        }
        lines.append("inputs  " + list(device.inputs))
        lines.append("outputs " + list(device.outputs))
        lines.append("routing owner \(owner(device))  route \(device.route)")
        lines.append("system sessions " + (systemSessions.isEmpty ? "-" : systemSessions))
        lines.append("apps \(snapshot.apps.count + snapshot.omittedApps)")
        for app in snapshot.apps {
            var flags: [String] = [app.isActive ? "active" : "inactive"]
            if app.isInterrupted { flags.append("interrupted") }
            if app.isOutputRunning { flags.append("output") }
            if app.isInputRunning { flags.append("input") }
            // PL7: a player of another program, with its MPRIS identity; POL4: a player's or a
            // stream's intent comes from the device policy's entry named here.
            let player = app.player.map { "  player \"\($0)\"" } ?? (app.kind == .stream ? "  stream" : "")
            let policy = app.policy.map { "  policy \($0)" } ?? ""
            lines.append(
                "  \(app.app)  pid \(app.pid)  \(app.category)/\(app.mode) [\(app.options)]  \(flags.joined(separator: ","))"
                    + "  gain \(app.outputGain)  route \(app.route)\(player)\(policy)")
        }
        if snapshot.omittedApps > 0 { lines.append("  … and \(snapshot.omittedApps) more (left out to fit one reply)") }
        lines.append("other audio \(device.otherAudio.count)")
        for stream in device.otherAudio {
            let name = stream.audio.name.isEmpty ? "" : "  \(stream.audio.name)"
            let role = stream.audio.role.map { "  role \($0)" } ?? ""
            lines.append("  \(stream.audio.id)\(name)\(role)  gain \(stream.gain)\(stream.isMuted ? "  muted" : "")")
        }
        lines.append(snapshot.violations.isEmpty ? "invariants hold" : "INVARIANTS BROKEN")
        lines += snapshot.violations.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The routing owner; an owner hidden by T4 (another user's app) still has a route.
    static func owner(_ device: DeviceStatus) -> String {
        if let owner = device.routingOwner { return owner.rawValue }
        return device.route == .none ? "-" : "(an app of another user)"
    }

    private static func list(_ ports: [AudioSessionModel.Port]) -> String {
        ports.isEmpty ? "-" : ports.map(\.description).joined(separator: " ")
    }

    static func json(_ snapshot: DeviceSnapshot) -> String {
        let device = snapshot.device
        let object: [String: Any] = [
            "device": device.profile.name,
            "outputVolume": device.outputVolume,
            "duckLevel": device.duckLevel,
            "locked": device.isLocked,
            "silentSwitch": device.silentSwitchOn,
            "microphoneMuted": device.microphoneMuted,
            "inputs": device.inputs.map(port),
            "outputs": device.outputs.map(port),
            "routingOwner": device.routingOwner?.rawValue ?? NSNull(),
            "route": ["inputs": device.route.inputs.map(port), "outputs": device.route.outputs.map(port)],
            "systemSessions": device.systemSessions.map(\.description),
            "invariantViolations": snapshot.violations,
            "omittedApps": snapshot.omittedApps,
            "mediaServicesLostSince": snapshot.mediaServicesLostSince.map { Int($0 / 1_000_000) } ?? NSNull(),
            "otherAudio": device.otherAudio.map { stream -> [String: Any] in
                [
                    "id": stream.audio.id, "name": stream.audio.name, "role": stream.audio.role ?? NSNull(),
                    "gain": stream.gain, "muted": stream.isMuted, "uid": stream.audio.uid.map { Int($0) } ?? NSNull(),
                ]
            },
            "apps": snapshot.apps.map { app -> [String: Any] in
                [
                    "app": app.app.rawValue, "pid": Int(app.pid), "uid": Int(app.uid), "category": app.category.name,
                    "mode": app.mode.name, "options": app.options.rawValue, "active": app.isActive,
                    "interrupted": app.isInterrupted, "outputRunning": app.isOutputRunning,
                    "inputRunning": app.isInputRunning, "outputGain": app.outputGain, "player": app.player ?? NSNull(),
                    "kind": "\(app.kind)", "policy": app.policy ?? NSNull(),
                    "route": ["inputs": app.route.inputs.map(port), "outputs": app.route.outputs.map(port)],
                ]
            },
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func port(_ port: AudioSessionModel.Port) -> [String: Any] {
        ["type": port.type.rawValue, "uid": port.uid, "name": port.name]
    }

    /// `HH:MM:SS.mmm` (UTC) of nanoseconds since 1970.
    static func time(_ nanoseconds: UInt64) -> String {
        let milliseconds = nanoseconds / 1_000_000
        let seconds = milliseconds / 1000
        let (h, m, s) = ((seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60)
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = milliseconds % 1000
        return "\(two(h)):\(two(m)):\(two(s)).\(ms < 10 ? "00" : ms < 100 ? "0" : "")\(ms)"
    }
}
