import AudioSessionModel

// Message payloads: a tag byte, then the fields (docs/protocol.md "Messages").

extension ClientMessage {
    /// The frame payload of this message.
    public func encoded() -> [UInt8] {
        var w = WireWriter()
        switch self {
        case .hello(let hello):
            w.write(tag: ClientMessageTag.hello)
            w.write(hello.version)
            switch hello.role {
            case .app(let app, let capabilities):
                w.write(tag: RoleTag.app)
                w.write(app)
                w.write(capabilities)
            case .controller: w.write(tag: RoleTag.controller)
            case .monitor: w.write(tag: RoleTag.monitor)
            }
            w.write(hello.player) { w, player in
                w.write(player.processID)
                w.write(player.identity)
                w.write(player.busName)
            }
        case .request(let id, let request):
            w.write(tag: ClientMessageTag.request)
            w.write(id)
            w.write(request)
        }
        return w.bytes
    }

    /// Decodes a frame payload; every byte string gives a message or a `WireError`.
    public init(decoding payload: [UInt8]) throws(WireError) {
        var r = WireReader(payload)
        switch try r.readTag("client message", as: ClientMessageTag.self) {
        case .hello:
            let version = try r.readUInt16("protocol version")
            let role: ClientRole
            switch try r.readTag("role", as: RoleTag.self) {
            case .app:
                let app = try r.readAppID("app id")
                role = .app(app, AppCapabilities(rawValue: try r.readUInt8("capabilities")))
            case .controller: role = .controller
            case .monitor: role = .monitor
            }
            let player = try r.readOptional("player") { r throws(WireError) in
                PlayerClaim(
                    processID: try r.readInt32("player pid"), identity: try r.readString("player identity"),
                    busName: try r.readString("player bus name"))
            }
            self = .hello(Hello(version: version, role: role, player: player))
        case .request:
            let id = try r.readUInt32("request id")
            self = .request(id: id, try r.readRequest())
        }
        try r.finish("client message")
    }
}

extension ServerMessage {
    /// The frame payload of this message.
    public func encoded() -> [UInt8] {
        var w = WireWriter()
        switch self {
        case .welcome(let version, let pid):
            w.write(tag: ServerMessageTag.welcome)
            w.write(version)
            w.write(pid)
        case .reply(let id, let reply):
            w.write(tag: ServerMessageTag.reply)
            w.write(id)
            w.write(reply)
        case .event(let event):
            w.write(tag: ServerMessageTag.event)
            w.write(event)
        case .closing(let error):
            w.write(tag: ServerMessageTag.closing)
            w.write(error)
        }
        return w.bytes
    }

    /// Decodes a frame payload; every byte string gives a message or a `WireError`.
    public init(decoding payload: [UInt8]) throws(WireError) {
        var r = WireReader(payload)
        switch try r.readTag("server message", as: ServerMessageTag.self) {
        case .welcome: self = .welcome(version: try r.readUInt16("protocol version"), daemonPID: try r.readInt32("daemon pid"))
        case .reply:
            let id = try r.readUInt32("request id")
            self = .reply(id: id, try r.readReply())
        case .event: self = .event(try r.readEvent())
        case .closing: self = .closing(try r.readSessionError())
        }
        try r.finish("server message")
    }
}

extension WireWriter {
    mutating func write(_ request: Request) {
        switch request {
        case .call(let call):
            write(tag: RequestTag.call)
            write(call)
        case .status: write(tag: RequestTag.status)
        case .ping: write(tag: RequestTag.ping)
        case .system(let event):
            write(tag: RequestTag.system)
            write(event)
        case .answerPermission(let app, let granted):
            write(tag: RequestTag.answerPermission)
            write(app)
            write(granted)
        case .deviceStatus: write(tag: RequestTag.deviceStatus)
        case .subscribe: write(tag: RequestTag.subscribe)
        case .reset(let profile, let duckLevel):
            write(tag: RequestTag.reset)
            write(profile)
            write(duckLevel)
        case .setAppState(let app, let state):
            write(tag: RequestTag.setAppState)
            write(app)
            write(state == .background)
        }
    }

    mutating func write(_ reply: Reply) {
        switch reply {
        case .done: write(tag: ReplyTag.done)
        case .failed(let error):
            write(tag: ReplyTag.failed)
            write(error)
        case .status(let status):
            write(tag: ReplyTag.status)
            write(status)
        case .device(let snapshot):
            write(tag: ReplyTag.device)
            write(snapshot.device)
            write(snapshot.apps) { $0.write($1) }
            write(snapshot.violations) { $0.write($1) }
            write(UInt32(clamping: snapshot.omittedApps))
            write(snapshot.mediaServicesLostSince) { $0.write($1) }
            // P4 (version 9): the fallback (0 waits, 1 granted, 2 denied), the notification's wait, the apps asked.
            write(UInt8(snapshot.permissions.fallback.map { $0 ? 1 : 2 } ?? 0))
            write(snapshot.permissions.timeoutMs)
            write(snapshot.permissions.asking) { $0.write($1) }
        }
    }

    mutating func write(_ event: ServerEvent) {
        switch event {
        case .notification(let sequence, let notification):
            write(tag: EventTag.notification)
            write(sequence)
            write(notification)
        case .outputGain(let gain):
            write(tag: EventTag.outputGain)
            write(gain)
        case .stopIO(let output, let input):
            write(tag: EventTag.stopIO)
            write(output)
            write(input)
        case .observed(let sequence, let time, let app, let notification):
            write(tag: EventTag.observed)
            write(sequence)
            write(time)
            write(app)
            write(notification)
        case .permissionPrompt(let app):
            write(tag: EventTag.permissionPrompt)
            write(app)
        }
    }
}

extension WireReader {
    mutating func readRequest() throws(WireError) -> Request {
        switch try readTag("request", as: RequestTag.self) {
        case .call: return .call(try readCall())
        case .status: return .status
        case .ping: return .ping
        case .system: return .system(try readSystemEvent())
        case .answerPermission: return .answerPermission(try readAppID("app"), granted: try readBool("granted"))
        case .deviceStatus: return .deviceStatus
        case .subscribe: return .subscribe
        case .reset: return .reset(try readProfile(), duckLevel: try readDouble("duck level"))
        case .setAppState:
            return .setAppState(try readAppID("app"), try readBool("background") ? .background : .foreground)
        }
    }

    mutating func readReply() throws(WireError) -> Reply {
        switch try readTag("reply", as: ReplyTag.self) {
        case .done: return .done
        case .failed: return .failed(try readSessionError())
        case .status: return .status(try readStatus())
        case .device:
            let device = try readDeviceStatus()
            let apps = try readArray("apps") { r throws(WireError) in try r.readAppSnapshot() }
            let violations = try readArray("violations") { r throws(WireError) in try r.readString("violation") }
            let omitted = Int(try readUInt32("omitted apps"))
            let lostSince = try readOptional("media services lost since") { r throws(WireError) in
                try r.readUInt64("media services lost since")
            }
            let fallback = try readUInt8("permission fallback")
            guard fallback <= 2 else { throw WireError(.badValue, "permission fallback \(fallback) is not 0, 1 or 2") }
            let permissions = PermissionAnswering(
                fallback: fallback == 0 ? nil : fallback == 1, timeoutMs: try readUInt32("permission timeout"),
                asking: try readArray("apps asked") { r throws(WireError) in try r.readString("app asked") })
            return .device(
                DeviceSnapshot(
                    device: device, apps: apps, violations: violations, omittedApps: omitted, mediaServicesLostSince: lostSince,
                    permissions: permissions))
        }
    }

    mutating func readEvent() throws(WireError) -> ServerEvent {
        switch try readTag("event", as: EventTag.self) {
        case .notification: return .notification(sequence: try readUInt64("sequence"), try readNotification())
        case .outputGain: return .outputGain(try readDouble("output gain"))
        case .stopIO: return .stopIO(output: try readBool("output"), input: try readBool("input"))
        case .observed:
            return .observed(
                sequence: try readUInt64("sequence"), time: try readUInt64("time"), app: try readAppID("app"),
                try readNotification())
        case .permissionPrompt: return .permissionPrompt(try readAppID("app"))
        }
    }
}
