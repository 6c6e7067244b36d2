import AudioSessionWire
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connection to `audiosessiond` over its Unix socket: blocking writes from the caller,
/// one reader thread that matches replies to requests and hands events over in order.
final class SocketConnection: SessionConnection {
    struct State {
        var nextID: UInt32 = 1
        var waiting: [UInt32: ReplySlot] = [:]
        var isOpen = true
        var closedOnPurpose = false
        /// Why the daemon closed the connection, when it said so.
        var closingError: SessionError?
    }

    private let fd: Int32
    /// Seconds a handshake or a reply may take before the call fails with `msrv`.
    private let timeout: Double
    private let state = Mutex(State())
    private let writeLock = Mutex(())
    private let handlers: ConnectionHandlers

    /// Connects, says hello and waits for the welcome.
    /// - Throws: `msrv` when no daemon listens at `path`; the daemon's error when it refuses the hello.
    init(path: String, hello: Hello, handlers: ConnectionHandlers, timeout: Double) throws(SessionError) {
        self.handlers = handlers
        self.timeout = timeout
        let (fd, received) = try Self.handshake(path, hello, timeout: timeout)
        self.fd = fd
        startDetachedThread(name: "as-reader") { [self] in readLoop(received) }
    }

    /// The descriptor is closed only here, when no thread can use it any more: closing it when
    /// the reader ends would let a later `close()` or write reach whatever socket reuses the number.
    deinit { Glibc.close(fd) }

    /// Opens the socket and exchanges hello and welcome; closes the socket on failure.
    private static func handshake(_ path: String, _ hello: Hello, timeout: Double) throws(SessionError) -> (Int32, FramedSocket) {
        try checkOwner(of: path)
        let fd = try open(path)
        var socket = FramedSocket(fd: fd)
        do throws(SessionError) {
            try write(fd, ClientMessage.hello(hello).encoded())
            let welcome: ServerMessage
            socket.setReceiveTimeout(timeout)
            defer { socket.setReceiveTimeout(0) }  // the reader thread waits for ever
            do {
                welcome = try socket.receive()
            } catch .malformed(let error) {
                throw SessionError(.mediaServicesFailed, "the daemon sent a malformed message: \(error)")
            } catch .timedOut {
                throw SessionError(
                    .mediaServicesFailed, "MS1: the daemon at \(path) did not answer the hello within \(timeout) s")
            } catch {
                throw SessionError(.mediaServicesFailed, "MS1: the daemon closed the connection")
            }
            switch welcome {
            case .welcome: return (fd, socket)
            case .closing(let error): throw error
            default: throw SessionError(.mediaServicesFailed, "the daemon did not answer the hello")
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    func request(_ request: Request) throws(SessionError) -> Reply {
        let slot = ReplySlot()
        let id = try state.withLock { state throws(SessionError) -> UInt32 in
            guard state.isOpen else { throw state.lostError }
            let id = state.nextID
            state.nextID &+= 1
            state.waiting[id] = slot
            return id
        }
        do {
            try writeLock.withLock { _ throws(SessionError) in
                try Self.write(fd, ClientMessage.request(id: id, request).encoded())
            }
        } catch {
            _ = state.withLock { $0.waiting.removeValue(forKey: id) }
            throw error
        }
        guard let reply = try slot.wait(timeout: timeout) else {
            _ = state.withLock { $0.waiting.removeValue(forKey: id) }  // a late reply is dropped
            throw SessionError(.mediaServicesFailed, "MS1: the daemon did not answer within \(timeout) s")
        }
        return reply
    }

    func flush() throws(SessionError) {
        _ = try request(.ping)
    }

    func close() {
        state.withLock { $0.closedOnPurpose = true }
        shutdown(fd, Int32(SHUT_RDWR))  // the reader sees the end; the descriptor stays ours until deinit
    }

    private func readLoop(_ initial: FramedSocket) {
        var socket = initial
        // Ends when the daemon closes, a read fails, or it speaks nonsense (as good as gone).
        while let message = try? socket.receive() {
            switch message {
            case .reply(let id, let reply):
                state.withLock { $0.waiting.removeValue(forKey: id) }?.fulfill(.success(reply))
            case .event(let event): handlers.event(event)
            case .closing(let error): state.withLock { $0.closingError = error }
            case .welcome: break
            }
        }
        let (waiting, onPurpose, error) = state.withLock { state in
            state.isOpen = false
            defer { state.waiting.removeAll() }
            return (Array(state.waiting.values), state.closedOnPurpose, state.lostError)
        }
        for slot in waiting { slot.fulfill(.failure(error)) }
        if !onPurpose { handlers.lost() }
    }

    /// A socket found in a shared place (the `/tmp` fallback) may have been made by anyone: it
    /// is trusted only if it and its directory belong to this user or to root.
    private static func checkOwner(of path: String) throws(SessionError) {
        let me = geteuid()
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for (what, place) in [("socket", path), ("socket's directory", directory.isEmpty ? "." : directory)] {
            var info = stat()
            guard lstat(place, &info) == 0 else { continue }  // connect says what is missing
            guard info.st_uid == me || info.st_uid == 0 else {
                throw SessionError(
                    .mediaServicesFailed,
                    "MS1: the \(what) \(place) belongs to uid \(info.st_uid), not to you (uid \(me)) or root: not trusted")
            }
        }
    }

    private static func open(_ path: String) throws(SessionError) -> Int32 {
        switch UnixSocket.connect(to: path) {
        case .success(let fd): return fd
        case .failure(let error) where error.rawValue == ENAMETOOLONG:
            throw SessionError(.badParam, "the socket path \(path) is too long for a Unix socket")
        case .failure(let error):
            throw SessionError(.mediaServicesFailed, "MS1: no audio session daemon at \(path) (\(error))")
        }
    }

    private static func write(_ fd: Int32, _ payload: [UInt8]) throws(SessionError) {
        do {
            try FramedSocket.send(Frame.encode(payload), on: fd)
        } catch {
            throw SessionError(.mediaServicesFailed, "MS1: the connection to the daemon is lost")
        }
    }
}

extension SocketConnection.State {
    /// What calls get once the connection is gone: the daemon's reason, or `msrv` (MS1).
    var lostError: SessionError {
        closingError ?? SessionError(.mediaServicesFailed, "MS1: media services were lost (the daemon connection closed)")
    }
}

/// Where a reply waits for its request.
final class ReplySlot: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Reply, SessionError>?>(nil)

    func fulfill(_ value: Result<Reply, SessionError>) {
        result.withLock { $0 = value }
        semaphore.signal()
    }

    /// The reply, or `nil` when none came within `seconds`.
    func wait(timeout seconds: Double) throws(SessionError) -> Reply? {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return nil }
        return try result.withLock { $0! }.get()
    }
}
