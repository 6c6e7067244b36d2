import AudioSessionWire
import Foundation

/// One blocking socket to the daemon, for the soak's poll loop: it writes whole frames and
/// hands back the messages that arrived. Written only after poll(2) said it is readable, so
/// a read never waits.
struct SoakConnection {
    let fd: Int32
    private var decoder = FrameDecoder()
    private var nextID: UInt32 = 1

    /// Connects and sends the hello; the welcome arrives through `receive`.
    init(socket: String, hello: Hello) throws {
        fd = try UnixSocket.connect(to: socket).get()
        try write(.hello(hello))
    }

    /// Sends a request and returns its id.
    mutating func request(_ request: Request) throws -> UInt32 {
        let id = nextID
        nextID &+= 1
        try write(.request(id: id, request))
        return id
    }

    private func write(_ message: ClientMessage) throws {
        let frame = Frame.encode(message.encoded())
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw UnixSocket.Errno(errno) }
            offset += written
        }
    }

    /// Reads what is waiting and decodes every complete message; `nil` when the daemon closed
    /// the connection.
    mutating func receive(into buffer: inout [UInt8]) throws -> [ServerMessage]? {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return [] }
        guard count > 0 else { return nil }
        decoder.append(buffer[0..<count])
        var messages: [ServerMessage] = []
        while let payload = try decoder.next() { messages.append(try ServerMessage(decoding: payload)) }
        return messages
    }

    func close() { _ = Glibc.close(fd) }
}
