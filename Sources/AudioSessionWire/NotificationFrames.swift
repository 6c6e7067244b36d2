import AudioSessionModel

/// Payloads for a run of messages to many connections: a notification equal to the one just
/// before (a route change fanned out to a thousand apps) is encoded once, and each payload only
/// puts its own sequence number in front. The bytes are exactly `ServerMessage.encoded()`'s.
public struct NotificationFrames: Sendable {
    private var last: (notification: SessionNotification, body: [UInt8])?

    public init() {}

    /// The message's payload.
    public mutating func payload(_ message: ServerMessage) -> [UInt8] {
        guard case .event(.notification(let sequence, let notification)) = message else { return message.encoded() }
        let body: [UInt8]
        if let last, last.notification == notification {
            body = last.body
        } else {
            var writer = WireWriter(reservingCapacity: 256)
            writer.write(notification)
            body = writer.bytes
            last = (notification, body)
        }
        var writer = WireWriter(reservingCapacity: body.count + 10)
        writer.write(tag: ServerMessageTag.event)
        writer.write(tag: EventTag.notification)
        writer.write(sequence)
        var bytes = writer.bytes
        bytes.append(contentsOf: body)
        return bytes
    }
}
