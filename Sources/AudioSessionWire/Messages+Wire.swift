import AudioSessionModel

// Message payloads: a tag byte, then the fields (docs/protocol.md "Messages").

extension ClientMessage {
    /// The frame payload of this message.
    public func encoded() -> [UInt8] {
        var w = WireWriter()
        switch self {
        case .hello(let hello):
            w.write(UInt8(0))
            w.write(hello.version)
            switch hello.role {
            case .app(let app, let capabilities):
                w.write(UInt8(0))
                w.write(app)
                w.write(capabilities)
            case .controller: w.write(UInt8(1))
            case .monitor: w.write(UInt8(2))
            }
        case .request(let id, let request):
            w.write(UInt8(1))
            w.write(id)
            w.write(request)
        }
        return w.bytes
    }

    /// Decodes a frame payload; every byte string gives a message or a `WireError`.
    public init(decoding payload: [UInt8]) throws(WireError) {
        var r = WireReader(payload)
        switch try r.readUInt8("client message") {
        case 0:
            let version = try r.readUInt16("protocol version")
            let role: ClientRole
            switch try r.readUInt8("role") {
            case 0:
                let app = try r.readAppID("app id")
                role = .app(app, AppCapabilities(rawValue: try r.readUInt8("capabilities")))
            case 1: role = .controller
            case 2: role = .monitor
            case let tag: throw WireError(.unknownTag, "role: no case \(tag)")
            }
            self = .hello(Hello(version: version, role: role))
        case 1:
            let id = try r.readUInt32("request id")
            self = .request(id: id, try r.readRequest())
        case let tag: throw WireError(.unknownTag, "client message: no case \(tag)")
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
            w.write(UInt8(0))
            w.write(version)
            w.write(pid)
        case .reply(let id, let reply):
            w.write(UInt8(1))
            w.write(id)
            w.write(reply)
        case .event(let event):
            w.write(UInt8(2))
            w.write(event)
        case .closing(let error):
            w.write(UInt8(3))
            w.write(error)
        }
        return w.bytes
    }

    /// Decodes a frame payload; every byte string gives a message or a `WireError`.
    public init(decoding payload: [UInt8]) throws(WireError) {
        var r = WireReader(payload)
        switch try r.readUInt8("server message") {
        case 0: self = .welcome(version: try r.readUInt16("protocol version"), daemonPID: try r.readInt32("daemon pid"))
        case 1:
            let id = try r.readUInt32("request id")
            self = .reply(id: id, try r.readReply())
        case 2: self = .event(try r.readEvent())
        case 3: self = .closing(try r.readSessionError())
        case let tag: throw WireError(.unknownTag, "server message: no case \(tag)")
        }
        try r.finish("server message")
    }
}

extension WireWriter {
    mutating func write(_ request: Request) {
        switch request {
        case .call(let call):
            write(UInt8(0))
            write(call)
        case .status: write(UInt8(1))
        case .ping: write(UInt8(2))
        case .system(let event):
            write(UInt8(3))
            write(event)
        case .answerPermission(let app, let granted):
            write(UInt8(4))
            write(app)
            write(granted)
        case .deviceStatus: write(UInt8(5))
        case .subscribe: write(UInt8(6))
        case .reset(let profile, let duckLevel):
            write(UInt8(7))
            write(profile)
            write(duckLevel)
        }
    }

    mutating func write(_ reply: Reply) {
        switch reply {
        case .done: write(UInt8(0))
        case .failed(let error):
            write(UInt8(1))
            write(error)
        case .status(let status):
            write(UInt8(2))
            write(status)
        case .device(let snapshot):
            write(UInt8(3))
            write(snapshot.device)
            write(snapshot.apps) { $0.write($1) }
            write(snapshot.violations) { $0.write($1) }
        }
    }

    mutating func write(_ event: ServerEvent) {
        switch event {
        case .notification(let sequence, let notification):
            write(UInt8(0))
            write(sequence)
            write(notification)
        case .outputGain(let gain):
            write(UInt8(1))
            write(gain)
        case .stopIO(let output, let input):
            write(UInt8(2))
            write(output)
            write(input)
        case .observed(let sequence, let time, let app, let notification):
            write(UInt8(3))
            write(sequence)
            write(time)
            write(app)
            write(notification)
        case .permissionPrompt(let app):
            write(UInt8(4))
            write(app)
        }
    }
}

extension WireReader {
    mutating func readRequest() throws(WireError) -> Request {
        switch try readUInt8("request") {
        case 0: return .call(try readCall())
        case 1: return .status
        case 2: return .ping
        case 3: return .system(try readSystemEvent())
        case 4: return .answerPermission(try readAppID("app"), granted: try readBool("granted"))
        case 5: return .deviceStatus
        case 6: return .subscribe
        case 7: return .reset(try readProfile(), duckLevel: try readDouble("duck level"))
        case let tag: throw WireError(.unknownTag, "request: no case \(tag)")
        }
    }

    mutating func readReply() throws(WireError) -> Reply {
        switch try readUInt8("reply") {
        case 0: return .done
        case 1: return .failed(try readSessionError())
        case 2: return .status(try readStatus())
        case 3:
            let device = try readDeviceStatus()
            let apps = try readArray("apps") { r throws(WireError) in try r.readAppSnapshot() }
            let violations = try readArray("violations") { r throws(WireError) in try r.readString("violation") }
            return .device(DeviceSnapshot(device: device, apps: apps, violations: violations))
        case let tag: throw WireError(.unknownTag, "reply: no case \(tag)")
        }
    }

    mutating func readEvent() throws(WireError) -> ServerEvent {
        switch try readUInt8("event") {
        case 0: return .notification(sequence: try readUInt64("sequence"), try readNotification())
        case 1: return .outputGain(try readDouble("output gain"))
        case 2: return .stopIO(output: try readBool("output"), input: try readBool("input"))
        case 3:
            return .observed(
                sequence: try readUInt64("sequence"), time: try readUInt64("time"), app: try readAppID("app"),
                try readNotification())
        case 4: return .permissionPrompt(try readAppID("app"))
        case let tag: throw WireError(.unknownTag, "event: no case \(tag)")
        }
    }
}
