#if canImport(Glibc)
import Glibc
#endif

/// Blocking frame I/O on a connected stream socket: the one read-and-write loop that the
/// client library, the soak, the daemon benchmark and the tests share (the daemon frames
/// through NIO). Reading belongs to one thread at a time; `send(_:on:)` may be called from
/// others with the descriptor.
public struct FramedSocket: Sendable {
    /// Why reading stopped.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The peer closed the connection (or it was shut down).
        case closed
        /// A read failed with this `errno`.
        case system(UnixSocket.Errno)
        /// The bytes are no frame or no message (`WireError`).
        case malformed(WireError)
        /// Nothing arrived within the receive timeout (`setReceiveTimeout`).
        case timedOut

        public var description: String {
            switch self {
            case .closed: "the connection closed"
            case .system(let error): "\(error)"
            case .malformed(let error): "malformed: \(error)"
            case .timedOut: "nothing arrived in time"
            }
        }
    }

    public let fd: Int32
    private var decoder: FrameDecoder
    private var buffer: [UInt8]

    /// Frames over a connected descriptor (not closed by this value: its owner closes it).
    public init(fd: Int32, bufferSize: Int = 65_536, maximumFrame: Int = Frame.maximumSize) {
        self.fd = fd
        decoder = FrameDecoder(maximumSize: maximumFrame)
        // Not zero-filled: read(2) writes what is then read, and a page never written is never
        // resident (a process holding many connections, the players bridge, pays per byte received).
        buffer = [UInt8](unsafeUninitializedCapacity: bufferSize) { _, count in count = bufferSize }
    }

    /// Connects to a Unix socket.
    public static func connect(to path: String) throws(UnixSocket.Errno) -> FramedSocket {
        FramedSocket(fd: try UnixSocket.connect(to: path).get())
    }

    /// Writes bytes whole (retrying interrupted writes; no SIGPIPE).
    public static func send(_ bytes: [UInt8], on fd: Int32) throws(UnixSocket.Errno) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw UnixSocket.Errno(n < 0 ? errno : EPIPE) }
            sent += n
        }
    }

    /// Sends one message as a frame.
    public func send(_ message: ClientMessage) throws(UnixSocket.Errno) {
        try Self.send(Frame.encode(message.encoded()), on: fd)
    }

    /// Sends bytes as they are (a test's malformed frames).
    public func send(raw bytes: [UInt8]) throws(UnixSocket.Errno) {
        try Self.send(bytes, on: fd)
    }

    /// The next complete payload already read, `nil` when more bytes are needed.
    public mutating func bufferedPayload() throws(Failure) -> [UInt8]? {
        do { return try decoder.next() } catch { throw .malformed(error) }
    }

    /// Blocking reads give up after `seconds` with `.timedOut` (0: wait for ever).
    public func setReceiveTimeout(_ seconds: Double) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One read(2) into the frame buffer (interrupted reads retried).
    /// - Throws: `.closed` at the end of the stream, `.timedOut` when the receive timeout
    ///   passed, `.system` for a failed read.
    public mutating func fill() throws(Failure) {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
            guard count >= 0 else { throw .system(UnixSocket.Errno(errno)) }
            guard count > 0 else { throw .closed }
            decoder.append(buffer[0..<count])
            return
        }
    }

    /// The next payload, reading as needed (blocks).
    public mutating func receivePayload() throws(Failure) -> [UInt8] {
        while true {
            if let payload = try bufferedPayload() { return payload }
            try fill()
        }
    }

    /// The next message from the daemon, reading as needed (blocks).
    public mutating func receive() throws(Failure) -> ServerMessage {
        let payload = try receivePayload()
        do { return try ServerMessage(decoding: payload) } catch { throw .malformed(error) }
    }

    /// Every message already read, after one more read (for a poll(2) loop: call when readable).
    public mutating func receiveAvailable() throws(Failure) -> [ServerMessage] {
        try fill()
        var messages: [ServerMessage] = []
        while let payload = try bufferedPayload() {
            do { messages.append(try ServerMessage(decoding: payload)) } catch { throw .malformed(error) }
        }
        return messages
    }
}
