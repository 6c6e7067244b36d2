import AudioSessionModel
import AudioSessionRuntime
import AudioSessionWire
import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// One client socket: frames in, arbiter calls, frames out. The first message must be a
/// hello, welcomed within `DaemonLimits.helloTimeout`, in a frame of at most
/// `preWelcomeFrame` bytes; a malformed or oversized frame gets a `closing` message and the
/// connection is closed, leaving the daemon and every other client alone. Connections are
/// counted per uid (`ConnectionGate`); warnings about a peer are rate-limited.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let arbiter: Arbiter
    private let logger: Logger
    private let limits: DaemonLimits
    private let gate: ConnectionGate
    private let warnings: WarningLimiter
    private var decoder: FrameDecoder
    private var peer = PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)
    private var admitted = false
    private var connection: Arbiter.ConnectionID?
    private var closing = false
    private var helloTimer: Scheduled<Void>?
    private let outbox: LoopOutbox
    /// Called when the connection does something (the daemon trims its memory after activity).
    private let activity: @Sendable () -> Void

    init(
        arbiter: Arbiter, logger: Logger, outbox: LoopOutbox, limits: DaemonLimits, gate: ConnectionGate,
        warnings: WarningLimiter, activity: @escaping @Sendable () -> Void
    ) {
        self.arbiter = arbiter
        self.logger = logger
        self.outbox = outbox
        self.limits = limits
        self.gate = gate
        self.warnings = warnings
        self.activity = activity
        decoder = FrameDecoder(maximumSize: limits.preWelcomeFrame)
    }

    func channelActive(context: ChannelHandlerContext) {
        // On the channel's own loop the option is read at once, before any byte arrives.
        Self.credentials(of: context.channel)?.assumeIsolated().whenSuccess { self.peer = $0 }
        if let refusal = gate.admit(peer.uid, privileged: arbiter.rules.trust.mayControl(peer)) {
            warn("refused a connection", kind: "limit", ["reason": "\(refusal)"])
            close(context, SessionError(.badParam, "too many connections: \(refusal)"))
        } else {
            admitted = true
            let timeout = limits.helloTimeout
            helloTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
                guard self.connection == nil, !self.closing else { return }
                self.warn("closed a connection that sent no hello", kind: "hello", ["timeout": "\(timeout) s"])
                self.close(context, SessionError(.badParam, "no hello within \(timeout) s"))
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        activity()
        let buffer = unwrapInboundIn(data)
        decoder.append(buffer.readableBytesView)
        do {
            while !closing, let payload = try decoder.next() {
                try handle(ClientMessage(decoding: payload), context)
            }
        } catch {
            warn("malformed frame; closing the connection", kind: "malformed", ["error": "\(error)"])
            close(context, SessionError(.badParam, "malformed frame: \(error)"))
        }
    }

    private func handle(_ message: ClientMessage, _ context: ChannelHandlerContext) throws(WireError) {
        switch (message, connection) {
        case (.hello(let hello), nil):
            switch arbiter.connect(hello, peer: peer, sink: ChannelSink(channel: context.channel, outbox: outbox)) {
            case .success(let id):
                connection = id
                helloTimer?.cancel()
                decoder.maximumSize = Frame.maximumSize  // welcomed: full-size frames from now on
                send(.welcome(version: ProtocolVersion.current, daemonPID: getpid()), context)
            case .failure(let error):
                warn("refused a hello", kind: "hello", ["error": "\(error)"])
                close(context, error)
            }
        case (.request(let id, let request), .some(let connection)):
            send(.reply(id: id, arbiter.handle(request, from: connection)), context)
        case (.hello, .some):
            throw WireError(.unexpectedMessage, "a second hello")
        case (.request, nil):
            throw WireError(.unexpectedMessage, "a request before the hello")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        activity()
        helloTimer?.cancel()
        if admitted {
            gate.release(peer.uid)
            admitted = false
        }
        // Deferred: a write the arbiter makes under its lock can close a dead channel
        // synchronously, and the arbiter's lock is not reentrant.
        if let connection {
            let arbiter = arbiter
            context.eventLoop.execute { arbiter.disconnect(connection) }
        }
        connection = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error", metadata: ["peer": "\(peer)", "error": "\(error)"])
        context.close(promise: nil)
    }

    /// A warning about this peer, at most once per interval per kind and uid.
    private func warn(_ message: Logger.Message, kind: String, _ metadata: Logger.Metadata) {
        warnings.warn(logger, message, key: "\(kind):\(peer.uid)", metadata.merging(["peer": "\(peer)"]) { $1 })
    }

    private func send(_ message: ServerMessage, _ context: ChannelHandlerContext) {
        outbox.send(message, to: context.channel)
    }

    private func close(_ context: ChannelHandlerContext, _ error: SessionError) {
        closing = true
        let channel = context.channel
        outbox.send(.closing(error), to: channel)
        context.eventLoop.execute { channel.close(promise: nil) }  // after the write above
    }
    /// SO_PEERCRED, read into our own layout of `struct ucred` (Glibc's is not imported), and
    /// the peer's supplementary groups (SO_PEERGROUPS) for T1's configured groups.
    static func credentials(of channel: any Channel) -> EventLoopFuture<PeerCredentials>? {
        struct UCred {
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
        }
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: SO_PEERCRED))
        return future.flatMap { cred in
            let groups: EventLoopFuture<PeerGroups> = provider.unsafeGetSocketOption(
                level: .socket, name: NIOBSDSocket.Option(rawValue: PeerGroups.option))
            return groups.map { PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, groups: $0.list) }
                .recover { _ in PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid) }  // more than 64: primary only
        }
    }
}

/// SO_PEERGROUPS' answer: up to 64 supplementary gids. NIO zero-fills the buffer and does not
/// say how much the kernel wrote, so a trailing 0 cannot be told from "no group": gid 0 is
/// never read as a supplementary group (configuration refuses to list group 0; root is the
/// uid 0, always trusted).
struct PeerGroups {
    static let option: Int32 = 59  // SO_PEERGROUPS, Linux 4.13
    var gids: InlineArray<64, UInt32> = .init(repeating: 0)

    var list: [UInt32] {
        var list: [UInt32] = []
        for index in gids.indices where gids[index] != 0 { list.append(gids[index]) }
        return list
    }
}

/// Sends to a socket from any thread, in call order, through its loop's outbox. (A class: the
/// arbiter keeps it per app and hands it a message per notification; a copy is one retain.)
final class ChannelSink: ConnectionSink {
    let channel: any Channel
    let outbox: LoopOutbox

    init(channel: any Channel, outbox: LoopOutbox) {
        self.channel = channel
        self.outbox = outbox
    }

    func send(_ message: ServerMessage) {
        outbox.send(message, to: channel)
    }

    func close() { channel.close(promise: nil) }
}

extension ByteBuffer {
    /// A message as one frame: its length, then its payload.
    static func frame(_ message: ServerMessage) -> ByteBuffer { frame(payload: message.encoded()) }

    /// A payload as one frame.
    static func frame(payload: [UInt8]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: payload.count + 4)
        buffer.writeInteger(UInt32(payload.count))
        buffer.writeBytes(payload)
        return buffer
    }
}
