import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// One socket to the daemon for the soak's poll loop: it writes whole frames and hands back
/// the messages that arrived. Read only after poll(2) said it is readable, so a read never waits.
struct SoakConnection {
    private var socket: FramedSocket
    private var nextID: UInt32 = 1

    var fd: Int32 { socket.fd }

    /// Connects and sends the hello; the welcome arrives through `receive`.
    init(socket path: String, hello: Hello) throws {
        socket = FramedSocket(fd: try UnixSocket.connect(to: path).get(), bufferSize: 16_384)
        try socket.send(.hello(hello))
    }

    /// Sends a request and returns its id.
    mutating func request(_ request: Request) throws -> UInt32 {
        let id = nextID
        nextID &+= 1
        try socket.send(.request(id: id, request))
        return id
    }

    /// Decodes every complete message after one read; `nil` when the daemon closed the connection.
    mutating func receive() throws -> [ServerMessage]? {
        do {
            return try socket.receiveAvailable()
        } catch .closed {
            return nil
        }
    }

    func close() { _ = Glibc.close(fd) }
}
