/// Framing: each message travels as a UInt32 big-endian payload length and the payload
/// (docs/protocol.md "Frames").
public enum Frame {
    /// The largest payload either side accepts: 1 MiB. A longer frame is refused from its
    /// header, before its payload is read.
    public static let maximumSize = 1 << 20

    /// The frame carrying a payload.
    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        var frame = WireWriter(reservingCapacity: payload.count + 4)
        frame.write(UInt32(payload.count))
        var bytes = frame.bytes
        bytes.append(contentsOf: payload)
        return bytes
    }
}

/// Cuts a byte stream into frame payloads. Feed it bytes as they arrive; take payloads
/// while `next()` gives them. After an error the stream is unusable: close the connection.
public struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// The largest payload accepted; the daemon raises it once a connection is welcomed.
    public var maximumSize: Int

    public init(maximumSize: Int = Frame.maximumSize) { self.maximumSize = maximumSize }

    /// Bytes received and not yet returned as payloads.
    public var bufferedCount: Int { buffer.count - start }

    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete payload, `nil` when more bytes are needed.
    /// - Throws: `WireError.oversized` when a header announces more than the maximum.
    public mutating func next() throws(WireError) -> [UInt8]? {
        guard bufferedCount >= 4 else { return nil }
        var length = 0
        for offset in 0..<4 { length = length << 8 | Int(buffer[start + offset]) }
        guard length <= maximumSize else {
            throw WireError(.oversized, "a frame of \(length) bytes is above the maximum of \(maximumSize)")
        }
        guard bufferedCount >= 4 + length else { return nil }
        let payload = Array(buffer[(start + 4)..<(start + 4 + length)])
        start += 4 + length
        if start > 65_536, start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return payload
    }
}
