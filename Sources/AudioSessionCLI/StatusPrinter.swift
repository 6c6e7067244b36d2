import AudioSessionClient
import AudioSessionWire
import FoundationEssentials

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
        lines.append(permissionLine(snapshot.permissions))
        lines.append("inputs  " + list(device.inputs))
        lines.append("outputs " + list(device.outputs) + (device.outputChoice.map { "  (chosen: \($0))" } ?? ""))
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
            // CL7: a call of a program that never heard of us, with its name and streams.
            var player = app.player.map { "  player \"\($0)\"" } ?? (app.kind == .stream ? "  stream" : "")
            if app.kind == .call {
                player =
                    "  call \"\(app.player ?? "?")\""
                    + (app.streams.isEmpty ? "" : "  streams \(app.streams.joined(separator: ", "))")
            }
            // SO1: a client's streams made by a library of its own process (not ours), as a call's are.
            if app.kind == .client, !app.streams.isEmpty { player = "  streams \(app.streams.joined(separator: ", "))" }
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

    /// P4: who answers a record-permission request while no system controller is connected.
    static func permissionLine(_ permissions: PermissionAnswering) -> String {
        let fallback = permissions.fallback.map { $0 ? "granted" : "denied" } ?? "none (a request waits)"
        let notification =
            permissions.timeoutMs == 0
            ? "no desktop notification"
            : "desktop notification, then the fallback after \(Double(permissions.timeoutMs) / 1000) s"
        let asking = permissions.asking.isEmpty ? "" : "  asking now: \(permissions.asking.joined(separator: ", "))"
        return "record permission without a controller: \(notification); permission-fallback \(fallback)\(asking)"
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
        let object: [String: JSONValue] = [
            "device": JSONValue(device.profile.name),
            "outputVolume": JSONValue(device.outputVolume),
            "duckLevel": JSONValue(device.duckLevel),
            "locked": JSONValue(device.isLocked),
            "silentSwitch": JSONValue(device.silentSwitchOn),
            "microphoneMuted": JSONValue(device.microphoneMuted),
            "inputs": .array(device.inputs.map(port)),
            "outputs": .array(device.outputs.map(port)),
            "routingOwner": JSONValue(device.routingOwner?.rawValue),
            "outputChoice": JSONValue(device.outputChoice),
            "route": route(device.route),
            "systemSessions": JSONValue(device.systemSessions.map { $0.description }),
            "invariantViolations": JSONValue(snapshot.violations),
            "omittedApps": JSONValue(snapshot.omittedApps),
            "mediaServicesLostSince": JSONValue(snapshot.mediaServicesLostSince.map { Int($0 / 1_000_000) }),
            // P4: who answers a record-permission request while no system controller is connected.
            "recordPermissionWithoutController": .object([
                "fallback": JSONValue(snapshot.permissions.fallback.map { $0 ? "granted" : "denied" }),
                "notificationTimeoutMs": JSONValue(Int(snapshot.permissions.timeoutMs)),
                "asking": JSONValue(snapshot.permissions.asking),
            ]),
            "otherAudio": .array(device.otherAudio.map(otherAudio)),
            "apps": .array(snapshot.apps.map(app)),
        ]
        return JSONValue.object(object).pretty
    }

    private static func otherAudio(_ stream: OtherAudioStatus) -> JSONValue {
        .object([
            "id": JSONValue(stream.audio.id), "name": JSONValue(stream.audio.name), "role": JSONValue(stream.audio.role),
            "gain": JSONValue(stream.gain), "muted": JSONValue(stream.isMuted),
            "uid": JSONValue(stream.audio.uid.map { (uid: UInt32) -> Int in Int(uid) }),
        ])
    }

    private static func app(_ app: AppSnapshot) -> JSONValue {
        .object([
            "app": JSONValue(app.app.rawValue), "pid": JSONValue(Int(app.pid)), "uid": JSONValue(Int(app.uid)),
            "category": JSONValue(app.category.name), "mode": JSONValue(app.mode.name),
            "options": JSONValue(Int(app.options.rawValue)), "active": JSONValue(app.isActive),
            "interrupted": JSONValue(app.isInterrupted), "outputRunning": JSONValue(app.isOutputRunning),
            "inputRunning": JSONValue(app.isInputRunning), "outputGain": JSONValue(app.outputGain),
            "player": JSONValue(app.player), "kind": JSONValue("\(app.kind)"), "policy": JSONValue(app.policy),
            "streams": .array(app.streams.map { JSONValue($0) }),
            "route": route(app.route),
        ])
    }

    private static func route(_ route: Route) -> JSONValue {
        .object(["inputs": .array(route.inputs.map(port)), "outputs": .array(route.outputs.map(port))])
    }

    private static func port(_ port: AudioSessionModel.Port) -> JSONValue {
        .object(["type": JSONValue(port.type.rawValue), "uid": JSONValue(port.uid), "name": JSONValue(port.name)])
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
