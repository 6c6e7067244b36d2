import AudioSessionRuntime
import AudioSessionWire
import Dispatch
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an `AudioSession` finds its arbiter: in this process (the default, on a simulated
/// iPhone) or in `audiosessiond` over its socket.
public struct AudioSessionTransport: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case inProcess(Arbiter)
        case socket(String, timeout: Double)
    }

    let kind: Kind

    /// An arbiter in this process (tests, tools, several apps in one process).
    public static func inProcess(_ arbiter: Arbiter) -> AudioSessionTransport { .init(kind: .inProcess(arbiter)) }

    /// Seconds a call waits for the daemon before failing with `msrv` (MS1): 2, or
    /// `AUDIOSESSION_TIMEOUT` when it is set.
    public static var defaultTimeout: Double {
        environmentValue("AUDIOSESSION_TIMEOUT").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 2
    }

    /// The daemon listening at `socketPath`; a handshake or a call that gets no answer within
    /// `timeout` seconds (a stopped or wedged daemon) fails with `msrv`.
    public static func daemon(socketPath: String, timeout: Double = defaultTimeout) -> AudioSessionTransport {
        .init(kind: .socket(socketPath, timeout: timeout))
    }

    /// The process-wide embedded arbiter: a simulated iPhone whose record-permission prompts
    /// are granted (there is no user to ask).
    public static var embedded: AudioSessionTransport { .inProcess(embeddedArbiter) }

    /// `AUDIOSESSION_SOCKET=PATH` selects the daemon at PATH; otherwise `embedded`.
    public static var fromEnvironment: AudioSessionTransport {
        if let path = environmentValue(SocketLocation.environmentVariable), !path.isEmpty {
            return .daemon(socketPath: path)
        }
        return .embedded
    }

    /// Whether a lost connection is worth reconnecting (a daemon may come back; MS1, MS2).
    var reconnects: Bool { if case .socket = kind { true } else { false } }

    func connect(_ hello: Hello, _ handlers: ConnectionHandlers) throws(SessionError) -> any SessionConnection {
        switch kind {
        case .inProcess(let arbiter): try InProcessConnection(arbiter: arbiter, hello: hello, handlers: handlers)
        case .socket(let path, let timeout): try SocketConnection(path: path, hello: hello, handlers: handlers, timeout: timeout)
        }
    }

    public var description: String {
        switch kind {
        case .inProcess: "in-process"
        case .socket(let path, _): "daemon at \(path)"
        }
    }
}

// swift-format-ignore: the embedded arbiter's configuration cannot fail (it has no store).
private let embeddedArbiter: Arbiter = {
    // swiftlint:disable:next force_try
    try! Arbiter(configuration: .init(permissionPolicy: .grant), logger: Logger(label: "audiosession.embedded"))
}()

extension AudioSession {
    /// The app id and capabilities of this process's session (`AudioSession.shared`, the C
    /// library's): `AUDIOSESSION_APP_ID` or the process name (each character an app id may not
    /// hold, `AppID.allowedCharacters`, made `_`), and `AUDIOSESSION_CAPABILITIES`
    /// (comma-separated `background-audio`, `now-playing`).
    public static func processIdentity() -> (AppID, AppCapabilities) {
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        let processName = String(name.unicodeScalars.prefix(255).map { AppID.isAllowed($0) ? Character($0) : "_" })
        let app = environmentValue("AUDIOSESSION_APP_ID").flatMap { $0.isEmpty ? nil : $0 } ?? processName
        var capabilities: AppCapabilities = []
        for word in (environmentValue("AUDIOSESSION_CAPABILITIES") ?? "").split(separator: ",") {
            if let capability = AppCapabilities(name: String(word)) { capabilities.insert(capability) }
        }
        return (AppID(app), capabilities)
    }
}

/// The value of an environment variable, if set (getenv: the client and the C library link no
/// FoundationEssentials, issue 31).
func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
