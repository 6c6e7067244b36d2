import AudioSessionModel

// An app of the device snapshot in wire form (statuses: StatusFields.swift).

extension WireWriter {
    mutating func write(_ a: AppSnapshot) {
        write(a.app)
        write(a.pid)
        write(a.uid)
        write(a.category)
        write(a.mode)
        write(a.options)
        write(a.isActive)
        write(a.isInterrupted)
        write(a.isOutputRunning)
        write(a.isInputRunning)
        write(a.outputGain)
        write(a.route)
        write(a.player) { $0.write($1) }
        write(a.kind.rawValue)
        write(a.policy) { $0.write($1) }
        let streams = a.streams.prefix(64)  // CL7: a program has a few; the reader takes 64 at most
        write(UInt16(streams.count))
        for stream in streams { write(stream) }
    }
}

extension WireReader {
    mutating func readAppSnapshot() throws(WireError) -> AppSnapshot {
        AppSnapshot(
            app: try readAppID("app"),
            pid: try readInt32("pid"),
            uid: try readUInt32("uid"),
            category: try readCategory(),
            mode: try readMode(),
            options: try readOptions(),
            isActive: try readBool("active"),
            isInterrupted: try readBool("interrupted"),
            isOutputRunning: try readBool("output running"),
            isInputRunning: try readBool("input running"),
            outputGain: try readDouble("output gain"),
            route: try readRoute(),
            player: try readOptional("player") { r throws(WireError) in try r.readString("player identity") },
            kind: try readAppKind(),
            policy: try readOptional("policy entry") { r throws(WireError) in try r.readString("policy entry") },
            streams: try readStreamNames()
        )
    }

    /// CL7: a call's streams (at most 64 are sent: a program has a few).
    mutating func readStreamNames() throws(WireError) -> [String] {
        let count = try readUInt16("stream count")
        guard count <= 64 else { throw WireError(.badValue, "a call's streams: \(count) is more than 64") }
        var names: [String] = []
        for _ in 0..<count { names.append(try readString("stream")) }
        return names
    }

    mutating func readAppKind() throws(WireError) -> AppKind {
        let raw = try readUInt8("app kind")
        guard let kind = AppKind(rawValue: raw) else { throw WireError(.unknownTag, "app kind: no case \(raw)") }
        return kind
    }
}
